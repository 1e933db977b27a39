import {
  accountIdSchema,
  bankAccountSchema,
  beneIdSchema,
  emailSchema,
  ifscSchema,
  phoneSchema,
  requestIdSchema,
  RULE,
  text,
  vpaSchema,
} from './common.schema.js';

/**
 * Request/reply messages on payouts.queries. `beneficiary.create` and `beneficiary.delete` are
 * commands (they change the provider's beneficiary list) but no payouts: like the queries they
 * write nothing to the ledger and are answered on the reply topic, keyed by queryId.
 */
export const QUERY_TYPES = [
  'query.bene_id',
  'query.bene_history',
  'query.sdk_token',
  'query.beneficiary',
  'beneficiary.create',
  'beneficiary.delete',
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

function query(type: QueryType, data: object) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'queryId', 'data'],
    properties: {
      type: { const: type },
      queryId: { type: 'string', minLength: 1, maxLength: 128 },
      replyTo: {
        type: 'string',
        minLength: 1,
        maxLength: 249,
        description: 'Logical reply topic; default payouts.query-replies',
      },
      accountId: accountIdSchema,
      requestId: requestIdSchema,
      data,
    },
  } as const;
}

const date = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  [RULE]: 'a date as YYYY-MM-DD',
} as const;

export const querySchemas = {
  'query.bene_id': query('query.bene_id', {
    type: 'object',
    additionalProperties: false,
    required: ['bankAccount', 'ifsc'],
    properties: { bankAccount: bankAccountSchema, ifsc: ifscSchema },
  }),
  'query.bene_history': query('query.bene_history', {
    type: 'object',
    additionalProperties: false,
    required: ['beneId'],
    properties: {
      beneId: beneIdSchema,
      startDate: date,
      endDate: date,
      perPage: { type: 'integer', minimum: 1, maximum: 25 },
      page: { type: 'integer', minimum: 1 },
    },
    dependencies: { startDate: ['endDate'] },
  }),
  'query.sdk_token': query('query.sdk_token', {
    type: 'object',
    additionalProperties: false,
    required: ['appId', 'metadata', 'authenticatedUser'],
    properties: {
      appId: { type: 'string', minLength: 1, maxLength: 128 },
      product: { const: 'VKYC' },
      metadata: {
        type: 'object',
        required: ['vkycRequestId'],
        properties: { vkycRequestId: { type: ['integer', 'string'] } },
      },
      authenticatedUser: {
        type: 'object',
        additionalProperties: false,
        required: ['identifierType', 'identifierValue'],
        properties: {
          identifierType: { type: 'string', minLength: 1 },
          identifierValue: { type: ['integer', 'string'] },
        },
      },
    },
  }),
  'query.beneficiary': query('query.beneficiary', {
    type: 'object',
    additionalProperties: false,
    required: ['beneId'],
    properties: { beneId: beneIdSchema },
  }),
  'beneficiary.create': query('beneficiary.create', {
    type: 'object',
    additionalProperties: false,
    required: ['beneId', 'name'],
    description:
      'A v1 account also needs email, phone and address1; a v2 account takes a beneId of at most 50. Same beneId and details again: answered "exists".',
    properties: {
      beneId: beneIdSchema,
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z ]+$',
        [RULE]: '1-100 letters or spaces',
      },
      bankAccount: bankAccountSchema,
      ifsc: ifscSchema,
      vpa: vpaSchema,
      email: emailSchema,
      phone: phoneSchema,
      address1: text(150),
      city: text(50),
      state: text(50),
      pincode: { type: 'string', pattern: '^[0-9]{6}$', [RULE]: 'a PIN code: 6 digits' },
    },
    dependencies: { bankAccount: ['ifsc'], ifsc: ['bankAccount'] },
    anyOf: [{ required: ['bankAccount', 'ifsc'] }, { required: ['vpa'] }],
  }),
  'beneficiary.delete': query('beneficiary.delete', {
    type: 'object',
    additionalProperties: false,
    required: ['beneId'],
    properties: { beneId: beneIdSchema },
  }),
} as const satisfies Record<QueryType, object>;

/** The reply to every query, on the reply topic, keyed by queryId. */
export const queryReplySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['queryId', 'type', 'ok'],
  properties: {
    queryId: { type: 'string' },
    type: { enum: [...QUERY_TYPES] },
    ok: { type: 'boolean' },
    generation: {
      enum: ['v1', 'v2'],
      description: "The provider API generation that answered (beneficiary messages): the account's",
    },
    data: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, providerCode: { type: 'string' } },
    },
  },
} as const;
