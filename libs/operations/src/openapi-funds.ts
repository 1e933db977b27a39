import { type Json, maybeTime, time } from './http/openapi-parts.js';

const figure = (description: string): Json => ({
  type: 'object',
  description,
  properties: {
    count: { type: 'integer', description: 'payouts and batch entries' },
    amount: { type: 'string', description: 'their sum, exact decimal' },
  },
  required: ['count', 'amount'],
});

/** What each account has committed (issue 32): components of the OpenAPI document (openapi.ts). */
export function fundsSchemas(): Record<string, Json> {
  return {
    AccountFunds: {
      type: 'object',
      properties: {
        accountId: { type: 'string' },
        inFlight: figure('sent to the provider and not settled'),
        waiting: figure('not sent yet: queued, awaitingApproval and heldForFunds together'),
        queued: figure('accepted, waiting to be sent (RECEIVED)'),
        awaitingApproval: figure("held by the account's approval policy; it may never be sent"),
        heldForFunds: {
          type: 'object',
          description:
            "held until the provider's available balance has room for it (HELD_FOR_FUNDS); sent then, or REJECTED (funds_hold_expired) past the maximum hold",
          properties: {
            count: { type: 'integer', description: 'payouts and batch entries' },
            amount: { type: 'string', description: 'their sum, exact decimal' },
            oldestSince: {
              ...(maybeTime as Record<string, Json>),
              description: 'when the longest-held of them was held; null when none is',
            },
          },
          required: ['count', 'amount', 'oldestSince'],
        },
        hold: {
          type: ['object', 'null'],
          description:
            "the account's holding for funds (FUNDS_HOLD); null while it is off (payouts are sent without looking at the balance)",
          properties: {
            threshold: { type: 'string', description: 'kept back and never spent, exact decimal rupees' },
            fee: {
              type: 'string',
              description:
                "the provider's fee per transfer counted with each payout and batch entry as what it takes from the balance (FUNDS_HOLD fee), exact decimal rupees",
            },
            maxHoldSeconds: {
              type: 'number',
              description: 'held longer than this, a payout or batch ends REJECTED (funds_hold_expired)',
            },
          },
          required: ['threshold', 'fee', 'maxHoldSeconds'],
        },
        balance: {
          type: ['object', 'null'],
          description: "the provider's available balance as last read; null while none is known",
          properties: { available: { type: 'string', description: 'exact decimal' }, readAt: time },
          required: ['available', 'readAt'],
        },
      },
      required: [
        'accountId',
        'inFlight',
        'waiting',
        'queued',
        'awaitingApproval',
        'heldForFunds',
        'hold',
        'balance',
      ],
    },
    Funds: {
      type: 'object',
      properties: {
        accounts: { type: 'array', items: { $ref: '#/components/schemas/AccountFunds' } },
        at: { type: 'string', format: 'date-time', description: 'when the figures were read' },
      },
      required: ['accounts', 'at'],
    },
    HeldForFunds: {
      type: 'object',
      properties: {
        subject: { type: 'string', enum: ['payout', 'batch'] },
        accountId: { type: 'string' },
        transferId: {
          type: 'string',
          description: "the payout's transferId, or the batch's batchTransferId",
        },
        amount: { type: 'string', description: "the payout's amount, or the batch's total; exact decimal" },
        entries: { type: 'integer', description: "1 for a payout; a batch's entries (held and sent whole)" },
        heldSince: { ...(maybeTime as Record<string, Json>), description: 'when it entered HELD_FOR_FUNDS' },
        reason: {
          type: ['string', 'null'],
          description: 'as recorded when it was held: insufficient_funds or no_balance_reading',
        },
        createdAt: time,
      },
      required: [
        'subject',
        'accountId',
        'transferId',
        'amount',
        'entries',
        'heldSince',
        'reason',
        'createdAt',
      ],
    },
    HeldForFundsPage: {
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: '#/components/schemas/HeldForFunds' } },
        next: {
          type: ['string', 'null'],
          description: 'pass as `after` for the next page; null on the last',
        },
      },
      required: ['items', 'next'],
    },
  };
}
