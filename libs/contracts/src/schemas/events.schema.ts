import { amountSchema, feeAmountSchema, RULE } from './common.schema.js';

/**
 * AWAITING_APPROVAL (issue 30): held at intake by the account's approval policy, before the executor
 * may claim it; approved, it is RECEIVED again (`payouts.payout.approved`), rejected or expired it
 * is REJECTED (`approval_rejected`, `approval_expired`). Nothing was sent to the provider.
 *
 * HELD_FOR_FUNDS (issue 32, ADR 0027): an account with holding on (FUNDS_HOLD) keeps a payout (a
 * batch whole) that does not fit its provider balance here instead of sending it to bounce
 * (`reason` `insufficient_funds`, or `no_balance_reading` before the first reading); it is sent
 * (`submitting`) when a reading shows room, or, held past the account's maximum hold, REJECTED with
 * `reason` `funds_hold_expired`. Nothing was sent to the provider while it was held.
 */
export const PAYOUT_STATUSES = [
  'RECEIVED',
  'AWAITING_APPROVAL',
  'HELD_FOR_FUNDS',
  'SUBMITTING',
  'PENDING',
  'UNKNOWN',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'REVERSED',
  'REQUIRES_ATTENTION',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Where a PENDING (or UNKNOWN) payout waits at the provider, when the provider says (issue 29): the
 * provider's long waits, each with its own check schedule bounded by what the provider documents
 * (`shared/spec/provider-facts.md`, "Long waits, balance and approvals"). The connector translates
 * the provider's words (v2 status QUEUED and APPROVAL_PENDING, status_code SCHEDULED_FOR_NEXT_WORKINGDAY
 * and SENT_TO_BANK, the TRANSFER_APPROVED webhook) into these; nothing else reads provider words.
 * - `queued`: held for low balance, sent when the account is funded (up to 10 days, 4 by default).
 * - `approval_pending`: waiting for a person in the provider's dashboard (also velocity, limit and
 *   anomaly checks).
 * - `approved`: approved in the provider's dashboard, not yet settled.
 * - `scheduled_next_working_day`: held until the bank's next working day.
 * - `sent_to_bank`: with the beneficiary's bank, not yet confirmed.
 */
export const PROVIDER_SUB_STATES = [
  'queued',
  'approval_pending',
  'approved',
  'scheduled_next_working_day',
  'sent_to_bank',
] as const;
export type ProviderSubState = (typeof PROVIDER_SUB_STATES)[number];

export const BATCH_STATUSES = [
  'RECEIVED',
  'AWAITING_APPROVAL',
  'HELD_FOR_FUNDS',
  'SUBMITTING',
  'PROCESSING',
  'UNKNOWN',
  'COMPLETED',
  'FAILED',
  'REJECTED',
  'REQUIRES_ATTENTION',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/**
 * Every event on payouts.events: a CloudEvents 1.0 envelope (structured mode). A payout is
 * identified by (accountId, transferId), a batch by (accountId, batchTransferId): two namespaces.
 * Transfer ids are one namespace per account across single payouts and batch entries, as at the
 * provider: a command whose transfer id (or one of whose entry ids) is held already is refused,
 * `payouts.command.conflict` with reason `transfer_id_in_use` and `heldBy`, id `<key>:conflict:<hash prefix>`.
 * The Kafka key names the entity in full: `payout/<accountId>/<transferId>` or
 * `batch/<accountId>/<batchTransferId>` (a batch's entries share their batch's key, so one
 * batch's events are one ordered stream). `id` is `<key>:<version>`, for an entry
 * `<batch key>/<transferId>:<version>`, for a conflict `<key>:<version>:conflict:<request hash
 * prefix>`, for a contradiction `<key>:<version>:contradicted:<observed status>`. Consumers dedupe on `id`: an id always stands for the same content, also when a
 * duplicate command re-emits it. `subject` is the bare transferId, batchTransferId or withdrawalId.
 * Provider notices (LOW_BALANCE_ALERT, BENEFICIARY_INCIDENT webhooks) are keyed
 * `provider/<accountId>`, with id `provider/<accountId>:<notice>:<webhook identity prefix>`.
 */
export const eventSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['specversion', 'id', 'type', 'source', 'time', 'subject', 'datacontenttype', 'data'],
  properties: {
    specversion: { const: '1.0' },
    id: {
      type: 'string',
      minLength: 3,
      description:
        "<key>:<version> with key payout/<accountId>/<transferId> or batch/<accountId>/<batchTransferId>; an entry: <batch key>/<transferId>:<version>; a conflict: <key>:<version>:conflict:<hash prefix> (a command refused because its transfer id is held: <key>:conflict:<hash prefix>); a contradiction: <key>:<version>:contradicted:<observed status, lower case> (a batch entry's: <batch key>/<transferId>:<version>:contradicted:<observed>). Unique; one id, one content.",
    },
    type: {
      type: 'string',
      pattern:
        '^payouts\\.(payout|batch|batch_item)\\.[a-z_]+$|^payouts\\.command\\.(rejected|conflict)$|^payouts\\.provider\\.(low_balance|beneficiary_incident)$',
      [RULE]:
        'payouts.payout.<state>, payouts.batch.<state>, payouts.batch_item.<state>, payouts.command.rejected or .conflict, or payouts.provider.low_balance or .beneficiary_incident',
      description:
        'payouts.payout.*, payouts.batch.*, payouts.batch_item.*: state changes (payouts.payout.contradicted: not a change, a later provider signal contradicting the published terminal state, with data.contradiction); payouts.command.*: refused commands; payouts.provider.low_balance and payouts.provider.beneficiary_incident: notices the provider pushed by webhook (key provider/<accountId>, data.kind provider_notice, subject and data.id the accountId, data.status the provider event; no free text)',
    },
    source: { type: 'string', minLength: 1 },
    time: { type: 'string', format: 'date-time', [RULE]: 'an RFC 3339 date-time with a zone' },
    subject: { type: 'string', minLength: 1, description: 'transferId, batchTransferId or withdrawalId' },
    datacontenttype: { const: 'application/json' },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['accountId', 'id', 'kind', 'status', 'version'],
      properties: {
        accountId: { type: 'string' },
        id: { type: 'string', description: 'transferId, batchTransferId or withdrawalId' },
        kind: { type: 'string' },
        status: { type: 'string' },
        version: { type: 'integer', minimum: 1 },
        amount: amountSchema,
        statusCode: { type: 'string' },
        reason: { type: 'string' },
        referenceId: { type: 'string' },
        svcTransferId: { type: 'string' },
        utr: { type: 'string' },
        batchTransferId: { type: 'string' },
        providerApi: {
          type: 'string',
          enum: ['v1', 'v2'],
          description:
            "The provider API generation that carried the payout or batch (the account's at acceptance, kept for every send and check). Optional: absent in events written before it was added.",
        },
        subState: {
          type: 'string',
          enum: [...PROVIDER_SUB_STATES],
          description:
            "payouts.payout.* and payouts.batch_item.*: where a payout or batch entry that is not settled waits at the provider, when it says (queued: held for low balance, up to 10 days; approval_pending: waiting for a person in the provider dashboard; approved: approved there, not yet settled; scheduled_next_working_day: held for the bank's next working day; sent_to_bank: with the beneficiary's bank). A change of it alone is a new version (payouts.payout.pending, payouts.batch_item.pending again). Absent: the provider said no more than its status, the payout is settled, or the event was written before it was added.",
        },
        fee: {
          type: 'object',
          additionalProperties: false,
          required: ['charge'],
          description:
            'payouts.payout.succeeded and .reversed, payouts.batch_item.success and .reversed: the provider\'s fee of the transfer (its service charge and the tax on it, decimal rupees as text), as the provider reported it when the payout settled. Only v2 transfers carry it; "0.00" is a known zero (the provider said it charged nothing). Absent: not known (a v1 payout, a v2 answer without it, or an event written before it was added).',
          properties: {
            charge: { ...feeAmountSchema, description: 'the service charge' },
            tax: { ...feeAmountSchema, description: 'the tax on the service charge; absent: not sent' },
          },
        },
        beneficiary: {
          type: 'object',
          additionalProperties: false,
          description: 'Masked: account numbers show their last 4 digits, VPAs their first 2 characters',
          properties: {
            beneId: { type: 'string' },
            bankAccount: {
              type: 'string',
              pattern: '^X*[0-9A-Za-z]{0,4}$',
              [RULE]: 'masked: X characters, then at most the last 4 characters',
            },
            ifsc: { type: 'string' },
            vpa: { type: 'string', pattern: '\\*\\*\\*', [RULE]: 'masked: containing ***' },
          },
        },
        totals: {
          type: 'object',
          additionalProperties: false,
          properties: {
            entries: { type: 'integer' },
            succeeded: { type: 'integer' },
            failed: { type: 'integer' },
            pending: { type: 'integer' },
          },
        },
        contradiction: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'published', 'observed', 'source'],
          description:
            "payouts.payout.contradicted only: a later provider signal says the published terminal state (data.status, data.version) was wrong. The published state stands until a person settles it (ADR 0018). For a batch entry (data.kind batch_entry, data.batchTransferId) it is keyed by its batch and data.version is the entry's.",
          properties: {
            kind: { enum: ['paid_after_failure', 'pending_after_failure', 'failed_after_success'] },
            published: { type: 'string', description: 'the terminal state published (as data.status)' },
            observed: { type: 'string', description: 'the state the provider now reports' },
            source: {
              enum: ['reconciler', 'webhook'],
              description: 'reconciler: a status check; webhook: a body-signed (v2) webhook',
            },
            observedCode: {
              type: 'string',
              description: "the provider's own status word, digit runs masked",
            },
          },
        },
        heldBy: {
          type: 'object',
          additionalProperties: false,
          required: ['transferId', 'by'],
          description:
            'payouts.command.conflict with reason transfer_id_in_use only: transfer ids are one namespace per account across single payouts and batch entries, as at the provider. The refused command (data.id, data.kind; status REJECTED: nothing recorded, nothing sent) would send transferId, which a single payout (by payout) or an entry of the batch batchTransferId (by batch_entry) holds already.',
          properties: {
            transferId: { type: 'string' },
            by: { enum: ['payout', 'batch_entry'] },
            batchTransferId: { type: 'string' },
          },
        },
        requestId: { type: 'string' },
        occurredAt: { type: 'string', format: 'date-time', [RULE]: 'an RFC 3339 date-time with a zone' },
      },
    },
  },
} as const;
