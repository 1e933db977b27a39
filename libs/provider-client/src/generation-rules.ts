import { type BatchEntry, type BatchFormat, type Command, type CommandType } from '#contracts';
import { amountAtLeast } from './core/decimal.js';

/**
 * What one provider API generation refuses of a command the contract accepts (issue 31, item 5).
 *
 * The command contract is the v1 interface's (payouts-service-interface.md), so v1 adds no rule.
 * Transfers V2 (provider-v2.md) is stricter where upstream can see it: on a v2 account
 * `standard_transfer`, `direct_transfer` and `batch_transfer` go to `POST /payout/transfers` and
 * `POST /payout/transfers/batch`, whose field rules differ from v1's. The other kinds use the same
 * endpoint on both generations (ADR 0019) and have no rule here.
 *
 * Each row is one difference, named; intake refuses a command a row of its account's generation
 * refuses, with the rule's name in the reason, before anything is stored or sent.
 */
export type RuleGeneration = 'v1' | 'v2';

export interface GenerationRule {
  /** Stable name: in the refusal's reason, the docs and the tests. */
  readonly name: string;
  /** The command types it reads. */
  readonly commands: readonly CommandType[];
  /** The command field it reads, as upstream names it (`entries[]` for each batch entry). */
  readonly field: string;
  /** What the generation takes there, in words (the reason says it). */
  readonly takes: string;
  /** Where the generation's spec says so. */
  readonly source: string;
  /** The first place in the command the rule refuses (a path under `data`), or undefined. */
  readonly refuses: (c: Command) => string | undefined;
}

export interface GenerationRefusal {
  readonly api: RuleGeneration;
  /** The rule's name. */
  readonly rule: string;
  /** Where in the command's data (e.g. `entries[2].name`). */
  readonly field: string;
  /** One line for a producer: rule, field and what the generation takes; never the value. */
  readonly reason: string;
}

const WALLET_MODES: readonly string[] = ['wallet_a', 'wallet_b'];
const WALLET_FORMATS: readonly BatchFormat[] = ['WALLET_A', 'WALLET_B'];
const BANK_MODES: readonly string[] = ['banktransfer', 'imps', 'neft', 'rtgs'];
/** The mode a batch format restricts its entries to (as the connector sends them). */
const FORMAT_MODE: Readonly<Record<BatchFormat, string | undefined>> = {
  BENEFICIARY_ID: undefined,
  BANK_ACCOUNT: 'banktransfer',
  UPI: 'upi',
  WALLET_A: 'wallet_a',
  WALLET_B: 'wallet_b',
};

/** provider-v2.md's field rules, written as the spec states them. */
const V2_NAME = /^[A-Za-z ]{1,100}$/;
const V2_BANK_ACCOUNT = /^[A-Za-z0-9]{9,18}$/;
const V2_VPA = /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/;
const V2_PHONE_DIGITS = /^[0-9]{8,12}$/;
const V2_REMARKS = /^[A-Za-z0-9\s]{0,70}$/;
const V2_BENEFICIARY_ID_MAX = 50;

/** The payee details a v2 request carries inline: a direct transfer's, a batch entry's without `beneId`. */
interface InlinePayee {
  readonly at: string;
  readonly mode: string;
  readonly name?: string;
  readonly bankAccount?: string;
  readonly ifsc?: string;
  readonly vpa?: string;
  readonly phone?: string;
}

function entriesOf(c: Command): ReadonlyArray<{ at: string; e: BatchEntry }> {
  if (c.type !== 'payout.batch_transfer') return [];
  return c.data.entries.map((e, i) => ({ at: `entries[${i}]`, e }));
}

function inlinePayees(c: Command): InlinePayee[] {
  if (c.type === 'payout.direct_transfer') {
    const d = c.data.beneDetails;
    return [{ at: 'beneDetails', mode: c.data.transferMode ?? 'banktransfer', ...d }];
  }
  if (c.type !== 'payout.batch_transfer') return [];
  const format = c.data.batchFormat;
  // An entry with a beneId goes by that id alone: its inline details are not sent on v2.
  return entriesOf(c)
    .filter(({ e }) => !e.beneId)
    .map(({ at, e }) => ({ at, mode: e.transferMode ?? FORMAT_MODE[format] ?? 'banktransfer', ...e }));
}

/** Every transfer mode the command names: its own, or each batch entry's. */
function modesOf(c: Command): Array<{ at: string; mode: string }> {
  if (c.type === 'payout.standard_transfer' || c.type === 'payout.direct_transfer')
    return c.data.transferMode ? [{ at: 'transferMode', mode: c.data.transferMode }] : [];
  return entriesOf(c).flatMap(({ at, e }) =>
    e.transferMode ? [{ at: `${at}.transferMode`, mode: e.transferMode }] : [],
  );
}

const firstPayee = (c: Command, field: keyof InlinePayee, ok: (v: string) => boolean) => {
  for (const p of inlinePayees(c)) {
    const v = p[field];
    if (v !== undefined && !ok(v)) return `${p.at}.${field}`;
  }
  return undefined;
};

const TRANSFERS: readonly CommandType[] = [
  'payout.standard_transfer',
  'payout.direct_transfer',
  'payout.batch_transfer',
];
const INLINE: readonly CommandType[] = ['payout.direct_transfer', 'payout.batch_transfer'];
const BATCH: readonly CommandType[] = ['payout.batch_transfer'];

const V2_RULES: readonly GenerationRule[] = [
  {
    name: 'v2_no_wallet_modes',
    commands: TRANSFERS,
    field: 'transferMode, entries[].transferMode',
    takes:
      'banktransfer, imps, neft, rtgs or upi: v2 names its wallets itself (paytm, amazonpay) and no source maps wallet_a or wallet_b to them',
    source: 'provider-v2.md, POST /transfers: transfer_mode',
    refuses: (c) => modesOf(c).find((m) => WALLET_MODES.includes(m.mode))?.at,
  },
  {
    name: 'v2_no_wallet_batch_formats',
    commands: BATCH,
    field: 'batchFormat',
    takes: 'BENEFICIARY_ID, BANK_ACCOUNT or UPI: the WALLET_A and WALLET_B formats are wallet modes',
    source: 'provider-v2.md, POST /transfers/batch (no batchFormat) and transfer_mode',
    refuses: (c) =>
      c.type === 'payout.batch_transfer' && WALLET_FORMATS.includes(c.data.batchFormat)
        ? 'batchFormat'
        : undefined,
  },
  {
    name: 'v2_no_delete_bene',
    commands: BATCH,
    field: 'deleteBene',
    takes: 'no deleteBene: Batch Transfer V2 has none, so a beneficiary would not be deleted and added again',
    source: 'provider-v2.md, POST /transfers/batch: "No batchFormat / deleteBene (v1 concepts gone)"',
    refuses: (c) =>
      c.type === 'payout.batch_transfer' && c.data.deleteBene === true ? 'deleteBene' : undefined,
  },
  {
    name: 'v2_beneficiary_id_at_most_50',
    commands: ['payout.standard_transfer', 'payout.batch_transfer'],
    field: 'beneId, entries[].beneId',
    takes: `a beneficiary id of at most ${V2_BENEFICIARY_ID_MAX} characters`,
    source: 'provider-v2.md, Beneficiary V2: beneficiary_id (≤ 50, beneficiary_id_length_exceeded)',
    refuses: (c) => {
      if (c.type === 'payout.standard_transfer')
        return c.data.beneId.length > V2_BENEFICIARY_ID_MAX ? 'beneId' : undefined;
      const long = entriesOf(c).find(({ e }) => (e.beneId ?? '').length > V2_BENEFICIARY_ID_MAX);
      return long ? `${long.at}.beneId` : undefined;
    },
  },
  {
    name: 'v2_beneficiary_name_letters_and_spaces',
    commands: INLINE,
    field: 'beneDetails.name, entries[].name (an entry without beneId)',
    takes: 'a name of letters and spaces only, at most 100',
    source: 'provider-v2.md, POST /transfers: beneficiary_name (≤ 100, letters and spaces)',
    refuses: (c) => firstPayee(c, 'name', (v) => V2_NAME.test(v)),
  },
  {
    name: 'v2_bank_account_9_to_18',
    commands: INLINE,
    field: 'beneDetails.bankAccount, entries[].bankAccount (an entry without beneId)',
    takes: 'a bank account number of 9-18 letters or digits',
    source: 'provider-v2.md, POST /transfers: bank_account_number (9–18 alphanumeric)',
    refuses: (c) => firstPayee(c, 'bankAccount', (v) => V2_BANK_ACCOUNT.test(v)),
  },
  {
    name: 'v2_vpa_characters',
    commands: INLINE,
    field: 'beneDetails.vpa, entries[].vpa (an entry without beneId)',
    takes: 'a VPA of letters, digits, ., -, _ and one @, with - only before the @',
    source: 'provider-v2.md, POST /transfers: vpa (letters, digits, ., -, _, @; - only before @)',
    refuses: (c) => firstPayee(c, 'vpa', (v) => v.length <= 100 && V2_VPA.test(v)),
  },
  {
    name: 'v2_phone_8_to_12_digits',
    commands: INLINE,
    field: 'beneDetails.phone, entries[].phone (an entry without beneId)',
    takes: 'a phone number of 8-12 digits, after an optional leading +91',
    source: 'provider-v2.md, POST /transfers: beneficiary_phone (8–12 digits after stripping +91)',
    refuses: (c) => firstPayee(c, 'phone', (v) => V2_PHONE_DIGITS.test(v.startsWith('+91') ? v.slice(3) : v)),
  },
  {
    name: 'v2_instrument_for_mode',
    commands: INLINE,
    field: 'beneDetails, entries[] (an entry without beneId)',
    takes:
      'bankAccount and ifsc for banktransfer, imps, neft and rtgs (the default banktransfer included), a vpa for upi',
    source:
      'provider-v2.md, POST /transfers: bank_account_number required for banktransfer/imps/neft/rtgs, vpa required for upi',
    refuses: (c) => {
      for (const p of inlinePayees(c)) {
        if (BANK_MODES.includes(p.mode) && !(p.bankAccount && p.ifsc)) return p.at;
        if (p.mode === 'upi' && !p.vpa) return p.at;
      }
      return undefined;
    },
  },
  {
    name: 'v2_batch_remarks_letters_digits_spaces',
    commands: BATCH,
    field: 'entries[].remarks',
    takes: 'remarks of letters, digits and whitespace only, at most 70',
    source:
      "provider-v2.md, POST /transfers/batch: entries take a standard transfer's fields; transfer_remarks (alphanumeric + whitespace, ≤ 70)",
    refuses: (c) => {
      const bad = entriesOf(c).find(({ e }) => e.remarks !== undefined && !V2_REMARKS.test(e.remarks));
      return bad ? `${bad.at}.remarks` : undefined;
    },
  },
  {
    name: 'v2_batch_amount_at_least_1',
    commands: BATCH,
    field: 'entries[].amount',
    takes: 'an amount of at least 1.00',
    source:
      "provider-v2.md, POST /transfers/batch: entries take a standard transfer's fields; transfer_amount (≥ 1.00)",
    refuses: (c) => {
      const low = entriesOf(c).find(({ e }) => !amountAtLeast(e.amount, '1.00'));
      return low ? `${low.at}.amount` : undefined;
    },
  },
];

/** Per generation, the rules a command of an account on it must pass (in order; the first refusal wins). */
export const GENERATION_RULES: { readonly [A in RuleGeneration]: readonly GenerationRule[] } = {
  v1: [],
  v2: V2_RULES,
};

/**
 * Which rule of this generation refuses this command (the first, in the table's order), or
 * undefined: the command can be sent on an account of this generation as the contract says.
 */
export function generationRuleRefusing(api: RuleGeneration, command: Command): GenerationRefusal | undefined {
  for (const rule of GENERATION_RULES[api]) {
    if (!rule.commands.includes(command.type)) continue;
    const field = rule.refuses(command);
    if (field === undefined) continue;
    return {
      api,
      rule: rule.name,
      field,
      reason: `${api} API rule ${rule.name}: at ${field}, the account's ${api} API takes ${rule.takes}`,
    };
  }
  return undefined;
}
