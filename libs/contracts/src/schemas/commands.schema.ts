import {
  accountIdSchema,
  emailSchema,
  positiveAmountSchema,
  bankAccountSchema,
  beneIdSchema,
  ifscSchema,
  phoneSchema,
  remarksSchema,
  RULE,
  requestIdSchema,
  text,
  transferIdSchema,
  transferModeSchema,
  vpaSchema,
} from './common.schema.js';

/** Every command type, and the field of its data that is its identity (the Kafka key). */
export const COMMAND_TYPES = {
  'payout.standard_transfer': 'transferId',
  'payout.direct_transfer': 'transferId',
  'payout.validated_upi_payout': 'transferId',
  'payout.card_payout': 'transferId',
  'payout.batch_transfer': 'batchTransferId',
  'payout.internal_transfer': 'transferId',
  'payout.self_withdrawal': 'withdrawalId',
} as const;

export type CommandType = keyof typeof COMMAND_TYPES;

/** The command that makes a batch (a row of its own table); every other command makes one payout. */
export const BATCH_COMMAND = 'payout.batch_transfer' satisfies CommandType;

/** A command that makes one payout: `payout.<kind>`. */
export type PayoutCommandType = Exclude<CommandType, typeof BATCH_COMMAND>;

/**
 * A payout's kind: its command's type without `payout.` (the ledger's `payout.kind` column, the
 * connector's sending calls, the pipeline's policy table, the console's search filter). The one
 * list every other derives from or is tested against (test/foundation/payout-kinds.int-spec.ts:
 * the migration's CHECK; apps/payout-service/src/console.spec.ts: the console's vocabulary).
 */
export type PayoutKind = PayoutCommandType extends `payout.${infer K}` ? K : never;

/** The kind of a payout command (`payout.card_payout` → `card_payout`). */
export function kindOfCommand(type: PayoutCommandType): PayoutKind {
  return type.slice('payout.'.length) as PayoutKind;
}

/** Every payout kind, in the order of COMMAND_TYPES. */
export const PAYOUT_KIND_NAMES: readonly PayoutKind[] = (Object.keys(COMMAND_TYPES) as CommandType[])
  .filter((t): t is PayoutCommandType => t !== BATCH_COMMAND)
  .map(kindOfCommand);

function envelope(type: CommandType, data: object) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'data'],
    properties: {
      type: { const: type },
      accountId: accountIdSchema,
      requestId: requestIdSchema,
      data,
    },
  } as const;
}

const standardTransfer = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'beneId', 'amount'],
  properties: {
    transferId: transferIdSchema,
    beneId: beneIdSchema,
    amount: positiveAmountSchema,
    transferMode: transferModeSchema,
    paymentInstrumentId: text(64, 1),
    remarks: remarksSchema,
  },
} as const;

const directTransfer = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'amount', 'beneDetails'],
  properties: {
    transferId: transferIdSchema,
    amount: positiveAmountSchema,
    transferMode: transferModeSchema,
    paymentInstrumentId: text(64, 1),
    remarks: remarksSchema,
    beneDetails: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: text(100, 1),
        phone: phoneSchema,
        email: emailSchema,
        address1: text(150),
        bankAccount: bankAccountSchema,
        ifsc: ifscSchema,
        vpa: vpaSchema,
      },
      anyOf: [{ required: ['bankAccount', 'ifsc'] }, { required: ['vpa'] }, { required: ['phone'] }],
    },
  },
} as const;

const validatedUpiPayout = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'amount', 'transferToken'],
  properties: {
    transferId: transferIdSchema,
    amount: positiveAmountSchema,
    transferToken: { ...text(4096, 1), description: 'Secret: encrypted at rest' },
    transferRemarks: text(70),
    fundsourceId: text(64, 1),
  },
} as const;

const cardPayout = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'amount', 'cardToken', 'cardType'],
  properties: {
    transferId: transferIdSchema,
    amount: positiveAmountSchema,
    cardToken: { ...text(256, 1), description: 'Secret: encrypted at rest' },
    cardType: { enum: ['DEBIT', 'CREDIT'] },
    networkType: { enum: ['VISA', 'MASTERCARD'] },
    cryptogram: { ...text(600, 1), description: 'Secret: encrypted at rest' },
    tokenExpiry: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', [RULE]: 'a month as YYYY-MM' },
    tokenPANSequenceNumber: {
      type: 'string',
      pattern: '^[A-Za-z0-9]{1,3}$',
      [RULE]: '1-3 letters or digits',
    },
    name: text(100, 1),
    remarks: remarksSchema,
  },
} as const;

const batchEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'amount'],
  properties: {
    transferId: transferIdSchema,
    amount: positiveAmountSchema,
    beneId: beneIdSchema,
    transferMode: { enum: ['banktransfer', 'upi', 'wallet_a', 'wallet_b'] },
    bankAccount: bankAccountSchema,
    ifsc: ifscSchema,
    vpa: vpaSchema,
    name: text(100, 1),
    email: emailSchema,
    phone: phoneSchema,
    remarks: text(70),
  },
} as const;

const batchTransfer = {
  type: 'object',
  additionalProperties: false,
  required: ['batchTransferId', 'batchFormat', 'entries'],
  properties: {
    batchTransferId: {
      type: 'string',
      minLength: 1,
      maxLength: 60,
      pattern: '^[A-Za-z0-9_]+$',
      [RULE]: '1-60 letters, digits or _',
    },
    batchFormat: { enum: ['BENEFICIARY_ID', 'BANK_ACCOUNT', 'UPI', 'WALLET_A', 'WALLET_B'] },
    deleteBene: { type: 'boolean' },
    entries: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: batchEntry,
      description:
        'Distinct transferIds; the total of the amounts must not exceed 99999999999999.99 (checked at run time)',
    },
  },
} as const;

const internalTransfer = {
  type: 'object',
  additionalProperties: false,
  required: ['transferId', 'amount', 'rechargeAccount'],
  properties: {
    transferId: transferIdSchema,
    amount: positiveAmountSchema,
    rechargeAccount: { type: 'string', pattern: '^[A-Za-z0-9]{1,64}$', [RULE]: '1-64 letters or digits' },
  },
} as const;

const selfWithdrawal = {
  type: 'object',
  additionalProperties: false,
  required: ['withdrawalId', 'amount'],
  properties: {
    withdrawalId: transferIdSchema,
    amount: positiveAmountSchema,
    remarks: text(70),
  },
} as const;

export const commandSchemas = {
  'payout.standard_transfer': envelope('payout.standard_transfer', standardTransfer),
  'payout.direct_transfer': envelope('payout.direct_transfer', directTransfer),
  'payout.validated_upi_payout': envelope('payout.validated_upi_payout', validatedUpiPayout),
  'payout.card_payout': envelope('payout.card_payout', cardPayout),
  'payout.batch_transfer': envelope('payout.batch_transfer', batchTransfer),
  'payout.internal_transfer': envelope('payout.internal_transfer', internalTransfer),
  'payout.self_withdrawal': envelope('payout.self_withdrawal', selfWithdrawal),
} as const satisfies Record<CommandType, object>;

/** Required fields of a batch entry per batchFormat (the interface's batch-format table). */
export const BATCH_FORMAT_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  BENEFICIARY_ID: ['beneId', 'transferMode'],
  BANK_ACCOUNT: ['bankAccount', 'ifsc', 'name', 'phone'],
  UPI: ['vpa', 'name'],
  WALLET_A: ['phone', 'name'],
  WALLET_B: ['phone', 'name'],
};
