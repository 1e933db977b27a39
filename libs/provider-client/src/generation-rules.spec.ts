import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Command, COMMAND_EXAMPLES, commandIdentity, decodeCommand } from '#contracts';
import { GENERATION_RULES, generationRuleRefusing } from './generation-rules.js';

// Meanings written from the specs, not from the table: for each v2 rule, commands the contract
// (the v1 interface) accepts that provider-v2.md refuses, with the field it refuses, and commands
// at the edge that v2 takes.

const ACCOUNT = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };
const standard = (data: Record<string, unknown> = {}): Command => ({
  type: 'payout.standard_transfer',
  data: { transferId: 'std_1', beneId: 'BENE1', amount: '10.00', ...data },
});
const direct = (bene: Record<string, unknown> = {}, data: Record<string, unknown> = {}): Command => ({
  type: 'payout.direct_transfer',
  data: {
    transferId: 'dir_1',
    amount: '10.00',
    beneDetails: { name: 'A Person', phone: '9876543210', ...ACCOUNT, ...bene },
    ...data,
  },
});
const entry = (e: Record<string, unknown> = {}) => ({
  transferId: 'e_1',
  amount: '10.00',
  name: 'A Person',
  phone: '9876543210',
  ...ACCOUNT,
  ...e,
});
const batch = (entries: Record<string, unknown>[] = [entry()], data: Record<string, unknown> = {}): Command =>
  ({
    type: 'payout.batch_transfer',
    data: {
      batchTransferId: 'b_1',
      batchFormat: 'BANK_ACCOUNT',
      entries: entries.map((e, i) => ({ ...e, transferId: `e_${i}` })),
      ...data,
    },
  }) as Command;
const upiBatch = (e: Record<string, unknown>) =>
  batch([{ transferId: 'e', amount: '10.00', name: 'A Person', vpa: 'someone@upi', ...e }], {
    batchFormat: 'UPI',
  });
const long = (n: number) => 'A'.repeat(n);

interface Meaning {
  readonly refused: ReadonlyArray<readonly [Command, string]>;
  readonly taken: readonly Command[];
}

const V2_MEANINGS: Readonly<Record<string, Meaning>> = {
  // transfer_mode: banktransfer, imps, neft, rtgs, upi, paytm, amazonpay, card, cardupi.
  v2_no_wallet_modes: {
    refused: [
      [standard({ transferMode: 'wallet_a' }), 'transferMode'],
      [direct({}, { transferMode: 'wallet_b' }), 'transferMode'],
      [
        batch([{ transferId: 'e', amount: '10.00', beneId: 'BENE1', transferMode: 'wallet_a' }], {
          batchFormat: 'BENEFICIARY_ID',
        }),
        'entries[0].transferMode',
      ],
    ],
    taken: [standard({ transferMode: 'imps' }), direct({}, { transferMode: 'rtgs' }), standard()],
  },
  // No batchFormat on Batch Transfer V2; WALLET_A/B restrict a v1 batch to a wallet mode.
  v2_no_wallet_batch_formats: {
    refused: [
      [
        batch([{ transferId: 'e', amount: '10.00', name: 'A Person', phone: '9876543210' }], {
          batchFormat: 'WALLET_A',
        }),
        'batchFormat',
      ],
    ],
    taken: [batch(), upiBatch({})],
  },
  // No deleteBene on Batch Transfer V2.
  v2_no_delete_bene: {
    refused: [[batch([entry()], { deleteBene: true }), 'deleteBene']],
    taken: [batch([entry()], { deleteBene: false })],
  },
  // beneficiary_id: at most 50 (the contract's beneId: up to 60).
  v2_beneficiary_id_at_most_50: {
    refused: [
      [standard({ beneId: long(51) }), 'beneId'],
      [
        batch([{ transferId: 'e', amount: '10.00', beneId: long(60), transferMode: 'banktransfer' }], {
          batchFormat: 'BENEFICIARY_ID',
        }),
        'entries[0].beneId',
      ],
    ],
    taken: [standard({ beneId: long(50) })],
  },
  // beneficiary_name: letters and spaces, at most 100 (the contract: any storable text).
  v2_beneficiary_name_letters_and_spaces: {
    refused: [
      [batch([entry(), entry({ name: 'Person 2' })]), 'entries[1].name'],
      [direct({ name: "A O'Person" }), 'beneDetails.name'],
      [direct({ name: 'A-Person' }), 'beneDetails.name'],
      [upiBatch({ name: 'Ä Person' }), 'entries[0].name'],
    ],
    taken: [
      direct({ name: 'A Person With A Long Name' }),
      // An entry with a beneId is sent by that id alone: its name does not reach the provider.
      batch([entry({ beneId: 'BENE1', name: 'Person 2' })]),
    ],
  },
  // bank_account_number: 9-18 alphanumeric (the contract: 6-40).
  v2_bank_account_9_to_18: {
    refused: [
      [direct({ bankAccount: '12345678' }), 'beneDetails.bankAccount'],
      [batch([entry({ bankAccount: '1234567890123456789' })]), 'entries[0].bankAccount'],
    ],
    taken: [direct({ bankAccount: '123456789' }), batch([entry({ bankAccount: '123456789012345678' })])],
  },
  // vpa: letters, digits, ., -, _, @; - only before @ (the contract: anything but spaces around one @).
  v2_vpa_characters: {
    refused: [
      [
        direct({ vpa: 'some+one@upi', bankAccount: undefined, ifsc: undefined }, { transferMode: 'upi' }),
        'beneDetails.vpa',
      ],
      [upiBatch({ vpa: 'someone@up-i' }), 'entries[0].vpa'],
    ],
    taken: [
      direct({ vpa: 'some.one-x_y@upi', bankAccount: undefined, ifsc: undefined }, { transferMode: 'upi' }),
    ],
  },
  // beneficiary_phone: 8-12 digits after stripping +91 (the contract: 8-15 digits or +).
  v2_phone_8_to_12_digits: {
    refused: [
      [direct({ phone: '9876543210123' }), 'beneDetails.phone'],
      [batch([entry({ phone: '+4412345678' })]), 'entries[0].phone'],
    ],
    taken: [
      direct({ phone: '+919876543210' }),
      direct({ phone: '98765432' }),
      batch([entry({ phone: '987654321012' })]),
    ],
  },
  // bank_account_number required for banktransfer/imps/neft/rtgs; vpa required for upi.
  v2_instrument_for_mode: {
    refused: [
      [direct({ bankAccount: undefined, ifsc: undefined, vpa: 'someone@upi' }), 'beneDetails'],
      [direct({}, { transferMode: 'upi' }), 'beneDetails'],
      [direct({ bankAccount: undefined, ifsc: undefined }, { transferMode: 'imps' }), 'beneDetails'],
    ],
    taken: [direct({ bankAccount: undefined, ifsc: undefined, vpa: 'someone@upi' }, { transferMode: 'upi' })],
  },
  // transfer_remarks: alphanumeric and whitespace, at most 70 (a v1 batch entry's remarks: free).
  v2_batch_remarks_letters_digits_spaces: {
    refused: [[batch([entry({ remarks: 'rent, May' })]), 'entries[0].remarks']],
    taken: [batch([entry({ remarks: 'rent May 2026' })])],
  },
  // transfer_amount: at least 1.00 (a v1 batch entry: any positive amount).
  v2_batch_amount_at_least_1: {
    refused: [[batch([entry(), entry({ amount: '0.99' })]), 'entries[1].amount']],
    taken: [batch([entry({ amount: '1.00' })]), batch([entry({ amount: '1' })])],
  },
};

/** Decoded as intake decodes it: a meaning the contract itself refuses would prove nothing. */
function contractAccepts(c: Command): void {
  const data = JSON.parse(JSON.stringify(c)) as Command;
  const r = decodeCommand(Buffer.from(JSON.stringify(data)), Buffer.from(commandIdentity(data)));
  assert.ok(r.ok, `the contract refuses ${JSON.stringify(c)}: ${r.ok ? '' : r.detail}`);
}

describe('generation rules', () => {
  it('v1 adds no rule: the command contract is the v1 interface', () => {
    assert.deepEqual(GENERATION_RULES.v1, []);
    for (const c of COMMAND_EXAMPLES) assert.equal(generationRuleRefusing('v1', c), undefined);
  });

  it('every v2 rule has a meaning written from provider-v2.md, and every meaning a rule', () => {
    assert.deepEqual(GENERATION_RULES.v2.map((r) => r.name).sort(), Object.keys(V2_MEANINGS).sort());
    const names = GENERATION_RULES.v2.map((r) => r.name);
    assert.equal(new Set(names).size, names.length, 'names are unique');
  });

  for (const rule of GENERATION_RULES.v2) {
    const meaning = V2_MEANINGS[rule.name];
    it(`${rule.name}: refuses what v2 refuses, where, with a reason naming it; takes the edge`, () => {
      assert.ok(meaning);
      for (const [c, field] of meaning.refused) {
        contractAccepts(c);
        assert.equal(generationRuleRefusing('v1', c), undefined, 'a v1 account takes it');
        const r = generationRuleRefusing('v2', c);
        assert.equal(r?.rule, rule.name, JSON.stringify(c));
        assert.equal(r?.field, field);
        assert.ok(rule.commands.includes(c.type));
        assert.match(
          r.reason,
          new RegExp(`^v2 API rule ${rule.name}: at ${field.replace(/[[\]]/g, '\\$&')},`),
        );
      }
      for (const c of meaning.taken) {
        contractAccepts(c);
        assert.equal(generationRuleRefusing('v2', c), undefined, JSON.stringify(c));
      }
    });
  }

  it('the kinds with one endpoint on both generations have no v2 rule (ADR 0019)', () => {
    const same = [
      'payout.validated_upi_payout',
      'payout.card_payout',
      'payout.internal_transfer',
      'payout.self_withdrawal',
    ];
    for (const r of GENERATION_RULES.v2)
      for (const t of same) assert.ok(!r.commands.includes(t as never), r.name);
    for (const c of COMMAND_EXAMPLES.filter((x) => same.includes(x.type)))
      assert.equal(generationRuleRefusing('v2', c), undefined);
  });

  it('a reason never quotes the value it refuses', () => {
    const r = generationRuleRefusing('v2', direct({ name: 'Secretname 42' }));
    assert.ok(r && !r.reason.includes('Secretname') && !r.reason.includes('42'));
    const p = generationRuleRefusing('v2', direct({ phone: '9876543210123' }));
    assert.ok(p && !p.reason.includes('9876543210123'));
  });
});
