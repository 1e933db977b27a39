import { createHmac } from 'node:crypto';
import { COMMAND_EXAMPLES, decodeCommand } from '#contracts';
import { generationRuleRefusing } from '#provider-client/testing';
import {
  CARD_TOKENS,
  FAILING_WALLET_PHONE,
  FAILURE_VPA,
  SUCCESS_VPA,
  seeded,
  TEST_ACCOUNTS,
  type Outcome,
} from '#sandbox';

/** Seeded (the sandbox's mulberry32, as its random faults): the same run for the same seed. */
export class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seeded(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[Math.floor(this.next() * xs.length)];
    if (x === undefined) throw new Error('pick from an empty list');
    return x;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  digits(n: number): string {
    let s = String(this.int(1, 9));
    while (s.length < n) s += String(this.int(0, 9));
    return s;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i += 1) b[i] = this.int(0, 255);
    return b;
  }
  base64(n: number): string {
    return this.bytes(n).toString('base64');
  }
}

export type Kind =
  | 'standard_transfer'
  | 'direct_transfer'
  | 'validated_upi_payout'
  | 'card_payout'
  | 'batch_transfer'
  | 'internal_transfer'
  | 'self_withdrawal';

/**
 * The service's provider accounts in a run: the primary on API generation v1 with v1 webhooks
 * (PROVIDER_ACCOUNT_ID and friends), and a second one on v2 with v2 webhooks (PROVIDER_ACCOUNTS),
 * each a merchant of its own at the sandbox (SANDBOX_CLIENT_ID and SANDBOX_MERCHANTS).
 */
export interface ChaosAccount {
  readonly accountId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly api: 'v1' | 'v2';
  readonly webhookVersion: 'v1' | 'v2';
}

export const PRIMARY_ACCOUNT = 'default';

export function chaosAccounts(primaryWebhookVersion: 'v1' | 'v2'): readonly ChaosAccount[] {
  return [
    {
      accountId: PRIMARY_ACCOUNT,
      clientId: 'sandbox_client_id',
      clientSecret: 'sandbox_client_secret',
      api: 'v1',
      webhookVersion: primaryWebhookVersion,
    },
    {
      accountId: 'v2',
      clientId: 'chaos_v2_client',
      clientSecret: 'chaos_v2_client_secret',
      api: 'v2',
      webhookVersion: 'v2',
    },
  ];
}

/** The generation an account of the run sends on (an account not in the run: v1). */
const apiOf = (account: string): 'v1' | 'v2' =>
  chaosAccounts('v1').find((a) => a.accountId === account)?.api ?? 'v1';

/** One command's key in every check: the same transferId on two accounts is two payouts. */
export const keyOf = (account: string, id: string): string => `${account}|${id}`;

export interface PlannedCommand {
  /** The service account (`accountId`) it is sent for. */
  readonly account: string;
  readonly identity: string;
  readonly kind: Kind;
  /** A short label of what it exercises (mode, test account outcome). */
  readonly label: string;
  readonly value: Record<string, unknown>;
  /** Secrets and personal data it carries: none may appear in an event. */
  readonly secrets: readonly string[];
  /** Batch entry ids. */
  readonly entries: readonly string[];
}

export interface Send {
  readonly key: string | null;
  readonly value: Buffer | null;
  /** Set for valid commands (and their repeats). */
  readonly identity?: string;
  readonly role: 'command' | 'duplicate' | 'conflict' | 'hostile';
  /** Hostile: what it is, and what it carries that must never be repeated. */
  readonly hostile?: Hostile;
}

/** A secret or personal datum planted in a message, and what it is (shown instead of the value). */
export interface Secret {
  readonly what: string;
  readonly value: string;
}

/** The services' DEAD_LETTER_DIGEST_KEY in a chaos run: dead letters are found by their keyed digest. */
export const CHAOS_DEAD_LETTER_KEY = Buffer.alloc(32, 17).toString('base64');

export interface Hostile {
  readonly n: number;
  readonly category: string;
  /** HMAC-SHA-256 of its bytes with CHAOS_DEAD_LETTER_KEY: its dead letter's `dlq-original-hmac-sha256`. */
  readonly hmac: string;
  readonly secrets: readonly Secret[];
  /** Well-formed commands with a bad value (zero amount): a REJECTED/FAILED event also settles them. */
  readonly identity?: string;
}

/**
 * What the run set up in the sandbox before the first command, for each merchant: beneficiaries
 * and transfer tokens.
 */
export interface SandboxFixtures {
  readonly beneIds: Readonly<Record<'success' | 'pendingThenSuccess' | 'invalidAccount', string>>;
  transferToken(account: string, transferId: string, vpa: string): Promise<string>;
}

const WEIGHTS: ReadonlyArray<readonly [Kind, number]> = [
  ['direct_transfer', 36],
  ['standard_transfer', 14],
  ['validated_upi_payout', 10],
  ['card_payout', 10],
  ['batch_transfer', 10],
  ['internal_transfer', 14],
  ['self_withdrawal', 6],
];

function example(kind: Kind): Record<string, unknown> {
  const e = COMMAND_EXAMPLES.find((c) => c.type === `payout.${kind}`);
  if (!e) throw new Error(`no contract example of ${kind}`);
  const copy: Record<string, unknown> = structuredClone(e);
  return copy;
}

const testAccount = (o: Outcome) => {
  const a = TEST_ACCOUNTS.find((t) => t.outcome === o);
  if (!a) throw new Error(`no sandbox test account for ${o}`);
  return { bankAccount: a.bankAccount, ifsc: a.ifsc };
};

/** Outcomes a direct transfer to a bank account is sent towards, most of them successes. */
const BANK_OUTCOMES: readonly Outcome[] = [
  'success',
  'success',
  'success',
  'success',
  'success',
  'invalidAccount',
  'pendingThenSuccess',
  'pendingThenFailure',
  'successThenReversed',
  'hangThenSuccess',
  'receivedThenSuccess',
  'bankFailed',
];

function amount(r: Random): string {
  return `${r.int(1, 5000)}.${String(r.int(0, 99)).padStart(2, '0')}`;
}

/**
 * Builds the valid commands of a run, every kind and mode, from the contract examples. Each kind
 * goes to the accounts in turn, so every account gets about its share of every kind. A share
 * (`twinRate`) of the other accounts' commands reuse the id of an earlier command of the primary
 * account: a transfer id is unique per account only, so those are payouts of their own.
 */
export async function planCommands(
  n: number,
  r: Random,
  runTag: string,
  fx: SandboxFixtures,
  accounts: readonly string[] = [PRIMARY_ACCOUNT],
  twinRate = 0,
  extraBankOutcomes: readonly string[] = [],
): Promise<PlannedCommand[]> {
  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  const out: PlannedCommand[] = [];
  const turns = new Map<Kind, number>();
  const twinned = new Set<string>();
  for (let i = 0; i < n; i += 1) {
    let x = r.next() * total;
    let kind: Kind = 'direct_transfer';
    for (const [k, w] of WEIGHTS) {
      if ((x -= w) < 0) {
        kind = k;
        break;
      }
    }
    const turn = turns.get(kind) ?? 0;
    turns.set(kind, turn + 1);
    const account = accounts[turn % accounts.length] ?? PRIMARY_ACCOUNT;
    let id = `${runTag}${i}`;
    let twin = false;
    if (account !== PRIMARY_ACCOUNT && r.chance(twinRate)) {
      const earlier = out.filter((c) => c.account === PRIMARY_ACCOUNT && !twinned.has(c.identity));
      const of = earlier.length > 0 ? r.pick(earlier) : undefined;
      if (of) {
        twinned.add(of.identity);
        id = of.identity;
        twin = true;
      }
    }
    const planned = await planOne(kind, account, id, r, fx, extraBankOutcomes);
    const c = twin ? { ...planned, label: `${planned.label}/same-id-as-${PRIMARY_ACCOUNT}` } : planned;
    // A valid command the contract refuses would be a fault of this harness, not of the service.
    const decoded = decodeCommand(Buffer.from(JSON.stringify(c.value)), Buffer.from(c.identity));
    if (!decoded.ok) throw new Error(`chaos generated an invalid ${c.label} command: ${decoded.detail}`);
    // Nor one its account's generation refuses at intake (issue 31): it would only be dead-lettered.
    const refusal = generationRuleRefusing(apiOf(c.account), decoded.value);
    if (refusal) throw new Error(`chaos generated a ${c.label} command ${refusal.reason}`);
    out.push(c);
  }
  return out;
}

/**
 * One valid command of `kind`. `extraBankOutcomes` (test/chaos/lifecycle.ts) are sandbox test
 * account outcomes direct bank transfers are also sent towards; none: the same draws as before.
 */
export async function planOne(
  kind: Kind,
  account: string,
  id: string,
  r: Random,
  fx: SandboxFixtures,
  extraBankOutcomes: readonly string[] = [],
): Promise<PlannedCommand> {
  const cmd = example(kind);
  const data = cmd['data'] as Record<string, unknown>;
  delete cmd['requestId'];
  cmd['accountId'] = account;
  cmd['requestId'] = `req-${id}`;
  const secrets: string[] = [];
  let label: string = kind;
  let entries: string[] = [];
  switch (kind) {
    case 'direct_transfer': {
      // Wallet modes are v1's only (the v2 rule v2_no_wallet_modes refuses them at intake).
      const wallets = apiOf(account) === 'v1' ? (['wallet_a', 'wallet_b'] as const) : [];
      const mode = r.pick(['banktransfer', 'imps', 'neft', 'rtgs', 'upi', ...wallets] as const);
      data['transferId'] = id;
      data['amount'] = mode === 'rtgs' ? `${r.int(200_000, 400_000)}.00` : amount(r);
      data['transferMode'] = mode;
      if (mode === 'upi') {
        const vpa = r.chance(0.8) ? SUCCESS_VPA : FAILURE_VPA;
        data['beneDetails'] = { name: 'Chaos Upi', phone: '9876543210', vpa };
        label = `direct/upi/${vpa === SUCCESS_VPA ? 'success' : 'failure'}`;
      } else if (mode === 'wallet_a' || mode === 'wallet_b') {
        const phone = r.chance(0.85) ? `98${r.digits(8)}` : FAILING_WALLET_PHONE;
        data['beneDetails'] = { name: 'Chaos Wallet', phone };
        label = `direct/${mode}/${phone === FAILING_WALLET_PHONE ? 'failure' : 'success'}`;
      } else {
        const o = r.pick([...BANK_OUTCOMES, ...(extraBankOutcomes as readonly Outcome[])]);
        const a =
          o === 'bankFailed' ? { bankAccount: `5${r.digits(11)}`, ifsc: 'HDFC0000001' } : testAccount(o);
        data['beneDetails'] = { name: 'Chaos Bank', phone: '9876543210', ...a };
        secrets.push(a.bankAccount);
        label = `direct/${mode}/${o}`;
      }
      break;
    }
    case 'standard_transfer': {
      const o = r.pick(['success', 'success', 'success', 'pendingThenSuccess', 'invalidAccount'] as const);
      data['transferId'] = id;
      data['beneId'] = fx.beneIds[o];
      data['amount'] = amount(r);
      data['transferMode'] = r.pick(['banktransfer', 'imps', 'neft']);
      delete data['remarks'];
      label = `standard/${data['transferMode'] as string}/${o}`;
      break;
    }
    case 'validated_upi_payout': {
      const vpa = r.chance(0.85) ? SUCCESS_VPA : FAILURE_VPA;
      data['transferId'] = id;
      data['amount'] = amount(r);
      data['transferToken'] = await fx.transferToken(account, id, vpa);
      secrets.push(data['transferToken'] as string);
      label = `validated_upi/${vpa === SUCCESS_VPA ? 'success' : 'failure'}`;
      break;
    }
    case 'card_payout': {
      const ok = r.chance(0.85);
      data['transferId'] = id;
      data['amount'] = amount(r);
      data['cardToken'] = ok ? r.pick(CARD_TOKENS.success) : r.pick(CARD_TOKENS.failure);
      data['cryptogram'] = r.base64(21);
      data['cardType'] = r.pick(['DEBIT', 'CREDIT']);
      data['networkType'] = (data['cardToken'] as string).startsWith('4') ? 'VISA' : 'MASTERCARD';
      secrets.push(data['cardToken'] as string, data['cryptogram'] as string);
      label = `card/${ok ? 'success' : 'failure'}`;
      break;
    }
    case 'batch_transfer': {
      const count = r.int(2, 5);
      entries = Array.from({ length: count }, (_, k) => `${id}E${k}`);
      const upi = r.chance(0.3);
      data['batchTransferId'] = id;
      data['batchFormat'] = upi ? 'UPI' : 'BANK_ACCOUNT';
      data['entries'] = entries.map((transferId) => {
        if (upi) {
          return {
            transferId,
            amount: amount(r),
            vpa: r.chance(0.85) ? SUCCESS_VPA : FAILURE_VPA,
            name: 'Chaos Batch',
            phone: '9876543210',
          };
        }
        const a = testAccount(r.pick(['success', 'success', 'success', 'invalidAccount'] as const));
        secrets.push(a.bankAccount);
        return { transferId, amount: amount(r), ...a, name: 'Chaos Batch', phone: '9876543210' };
      });
      label = `batch/${upi ? 'UPI' : 'BANK_ACCOUNT'}`;
      break;
    }
    case 'internal_transfer': {
      // Not RA0002: "account not configured" is a fatal configuration answer, which turns the
      // provider readiness check down and would blur the restart figures.
      const ra = 'RA0001';
      data['transferId'] = id;
      data['amount'] = amount(r);
      data['rechargeAccount'] = ra;
      label = `internal/${ra}`;
      break;
    }
    case 'self_withdrawal': {
      data['withdrawalId'] = id;
      data['amount'] = amount(r);
      label = 'self_withdrawal';
      break;
    }
  }
  return { account, identity: id, kind, label, value: cmd, secrets, entries };
}

/** The same identity with a different request (another amount): the first request must stand. */
export function conflicting(c: PlannedCommand): Record<string, unknown> {
  const v = structuredClone(c.value);
  const data = v['data'] as Record<string, unknown>;
  if (c.kind === 'batch_transfer') {
    const entries = data['entries'] as Record<string, unknown>[];
    const first = entries[0];
    if (first) first['amount'] = '1.11';
  } else {
    data['amount'] = data['amount'] === '1.11' ? '2.22' : '1.11';
  }
  return v;
}

const HOSTILE_CATEGORIES = [
  'random_bytes',
  'invalid_utf8',
  'nul_bytes',
  'number_for_string',
  'deep_nesting',
  'zero_amount',
  'overflow_amount',
  'secrets_inside',
  'truncated_secrets',
  'not_an_object',
  'unknown_type',
  'empty',
  'key_mismatch',
  'near_limit',
] as const;

/**
 * One hostile message. Every one must reach the dead-letter topic with a reason (zero amounts
 * are well formed: a REJECTED or FAILED event settles them too), and no secret it carries may
 * appear there.
 */
export function hostileMessage(n: number, r: Random, runTag: string, maxCommandBytes: number): Send {
  // Near-limit messages are big: keep them to a few per thousand.
  let category = r.pick(HOSTILE_CATEGORIES);
  if (category === 'near_limit' && !r.chance(0.05)) category = 'random_bytes';
  const id = `${runTag}H${n}`;
  const secrets: Secret[] = [];
  const acct = `7${r.digits(13)}`;
  const card = `4${r.digits(15)}`;
  const cryptogram = r.base64(24);
  const vpa = `chaos${n}payee@okbank`;
  const token = `eyJ${r.base64(18).replace(/[+/=]/g, 'x')}.${r.base64(30).replace(/[+/=]/g, 'y')}`;
  const direct = (extra: Record<string, unknown> = {}, dataExtra: Record<string, unknown> = {}) => ({
    type: 'payout.direct_transfer',
    data: {
      transferId: id,
      amount: '10.00',
      beneDetails: { name: 'Hostile', bankAccount: acct, ifsc: 'YESB0000262' },
      ...dataExtra,
    },
    ...extra,
  });
  let key: string | null = r.chance(0.5) ? id : null;
  let value: Buffer | null;
  let identity: string | undefined;
  switch (category) {
    case 'random_bytes':
      value = r.bytes(r.int(1, 2_000));
      break;
    case 'invalid_utf8': {
      const text = JSON.stringify(direct());
      const cut = r.int(1, text.length - 1);
      value = Buffer.concat([
        Buffer.from(text.slice(0, cut)),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]),
        Buffer.from(text.slice(cut)),
      ]);
      secrets.push({ what: 'account number', value: acct });
      break;
    }
    case 'nul_bytes': {
      const variant = r.int(0, 2);
      if (variant === 0) {
        // Well formed, but PostgreSQL cannot store a NUL in text or jsonb.
        value = Buffer.from(JSON.stringify(direct({}, { remarks: 'nul\u0000inside' })));
        key = id;
        identity = id;
        secrets.push({ what: 'account number', value: acct });
      } else if (variant === 1) {
        value = Buffer.from(JSON.stringify(direct({}, { transferId: `${id}\u0000x` })));
        secrets.push({ what: 'account number', value: acct });
      } else {
        value = Buffer.from(`{"type":"payout.internal_transfer"\u0000,"data":{}}`);
      }
      break;
    }
    case 'number_for_string':
      value = Buffer.from(
        JSON.stringify(
          r.pick([
            direct({}, { amount: 10 }),
            direct({}, { transferId: 12345 }),
            { type: 'payout.internal_transfer', data: { transferId: id, amount: 1e21, rechargeAccount: 7 } },
            { type: 42, data: {} },
          ]),
        ),
      );
      secrets.push({ what: 'account number', value: acct });
      break;
    case 'deep_nesting': {
      const depth = r.int(1_000, 20_000);
      value = Buffer.from(
        `{"type":"payout.direct_transfer","data":{"transferId":"${id}","x":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
      );
      break;
    }
    case 'zero_amount':
      value = Buffer.from(
        JSON.stringify(
          r.chance(0.5)
            ? {
                type: 'payout.internal_transfer',
                data: { transferId: id, amount: '0', rechargeAccount: 'RA0001' },
              }
            : direct({}, { amount: '0.00' }),
        ),
      );
      key = id;
      identity = id;
      secrets.push({ what: 'account number', value: acct });
      break;
    case 'overflow_amount':
      value = Buffer.from(
        JSON.stringify(
          direct({}, { amount: r.pick(['9999999999999.99', '1e309', '-5.00', '10.001', 'NaN']) }),
        ),
      );
      secrets.push({ what: 'account number', value: acct });
      break;
    case 'secrets_inside': {
      const v = {
        type: 'payout.card_payout',
        data: {
          transferId: id,
          amount: 12,
          cardToken: card,
          cryptogram,
          cardType: 'CREDIT',
          bankAccount: acct,
          vpa,
          authorization: `Bearer ${token}`,
          remarks: `pay to account ${acct}`,
        },
      };
      value = Buffer.from(JSON.stringify(v));
      secrets.push(
        { what: 'card token', value: card },
        { what: 'cryptogram', value: cryptogram },
        { what: 'account number (bankAccount, and in remarks)', value: acct },
        { what: 'bearer token (authorization)', value: token },
        { what: 'VPA', value: vpa },
      );
      break;
    }
    case 'truncated_secrets': {
      const text = JSON.stringify({
        type: 'payout.card_payout',
        data: { transferId: id, amount: '1.00', cardToken: card, cryptogram, cardType: 'CREDIT', vpa },
      });
      value = Buffer.from(text.slice(0, text.indexOf(cryptogram) + cryptogram.length - 2));
      secrets.push(
        { what: 'card token (truncated JSON)', value: card },
        { what: 'cryptogram (truncated JSON)', value: cryptogram.slice(0, -2) },
        { what: 'VPA (truncated JSON)', value: vpa },
      );
      break;
    }
    case 'not_an_object':
      value = Buffer.from(r.pick(['[1,2,3]', '"just a string"', '42', 'null', 'true']));
      break;
    case 'unknown_type':
      value = Buffer.from(
        JSON.stringify({ type: 'payout.teleport', data: { transferId: id, amount: '1.00' } }),
      );
      break;
    case 'empty':
      value = r.chance(0.5) ? null : Buffer.alloc(0);
      break;
    case 'key_mismatch':
      value = Buffer.from(JSON.stringify(direct()));
      key = `${id}other`;
      secrets.push({ what: 'account number', value: acct });
      break;
    case 'near_limit': {
      // Just under or just over the service's limit (MAX_COMMAND_BYTES): padding in an unknown field.
      const base = JSON.stringify(direct({}, { padding: '' }));
      const size = maxCommandBytes + r.pick([-64, -1, 1, 64]);
      const pad = 'p'.repeat(Math.max(0, size - Buffer.byteLength(base)));
      value = Buffer.from(JSON.stringify(direct({}, { padding: pad })));
      secrets.push({ what: 'account number', value: acct });
      break;
    }
  }
  const hmac = createHmac('sha256', Buffer.from(CHAOS_DEAD_LETTER_KEY, 'base64'))
    .update(value ?? Buffer.alloc(0))
    .digest('hex');
  return {
    key,
    value,
    role: 'hostile',
    hostile: { n, category, hmac, secrets, ...(identity ? { identity } : {}) },
  };
}

export function commandKey(c: PlannedCommand): string {
  return keyOf(c.account, c.identity);
}
