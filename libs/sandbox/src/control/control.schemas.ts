import { z } from 'zod';
import { RANDOM_FAULT_KINDS, RESEND_REFUSALS } from '../core/faults.js';
import { HOSTILE_VARIANTS } from '../webhooks/hostile.js';
import { APPROVAL_CODES } from '../core/state.js';
import { REJECTION_CODES } from '../handlers/long-waits.js';
import { ENDPOINT_IDS } from '../handlers/registry.js';

/** The endpoint ids of the handler registry (faults, flags, rate limits, random mode). */
const endpointId = z.enum(ENDPOINT_IDS);

const amount = z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'an amount like 1000.00');
const nonNeg = z.number().int().min(0);
/** Late applies and status lags are bounded by a day of sandbox clock (tens of minutes is the point). */
const DAY_MS = 24 * 60 * 60_000;
const lateAnswer = z.union([z.enum(['hang', 'reset']), z.number().int().min(500).max(599)]);

export const advanceSchema = z.strictObject({
  ms: nonNeg.optional(),
  seconds: nonNeg.optional(),
  days: nonNeg.max(3650).optional(),
});

export const balanceSchema = z.strictObject({ balance: amount });

export const flagsSchema = z.strictObject({
  apisDisabled: z.array(endpointId).optional(),
  featureDisabled: z.array(endpointId).optional(),
  disabledModes: z.array(z.string()).optional(),
  unavailableModes: z.array(z.string()).optional(),
  multipleInstruments: z.boolean().optional(),
  beneficiaryDailyLimit: z.union([amount, z.literal('')]).optional(),
  accountDailyLimit: z.union([amount, z.literal('')]).optional(),
  queueOnLowBalance: z.boolean().optional(),
  // The provider lets a merchant queue between 1 hour and 10 days (4 days by default).
  queueMaxMs: z
    .number()
    .int()
    .min(60 * 60_000)
    .max(10 * DAY_MS)
    .optional(),
  approvalRequired: z.union([z.enum(APPROVAL_CODES), z.literal('')]).optional(),
});

export const fundSchema = z.strictObject({ amount });

export const feesSchema = z.strictObject({ transferCharge: amount });

export const approveSchema = z.strictObject({ transferId: z.string().min(1).max(100) });

export const rejectSchema = z.strictObject({
  transferId: z.string().min(1).max(100),
  statusCode: z.enum(REJECTION_CODES).optional(),
});

export const calendarSchema = z.strictObject({
  weekendDays: z.array(z.number().int().min(0).max(6)).max(6).optional(),
  holidays: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a yyyy-mm-dd day')).optional(),
});

export const faultSchema = z.strictObject({
  endpoint: z.union([endpointId, z.literal('*')]),
  latencyMs: nonNeg.optional(),
  hang: z.boolean().optional(),
  httpStatus: z.number().int().min(500).max(599).optional(),
  subCode520: z.union([z.boolean(), z.string()]).optional(),
  reset: z.boolean().optional(),
  burst429: z.number().int().min(1).optional(),
  loseAnswer: z.enum(['reset', 'hang']).optional(),
  applyThenStatus: z.number().int().min(500).max(599).optional(),
  applyThenLatencyMs: nonNeg.optional(),
  applyLaterMs: nonNeg.max(DAY_MS).optional(),
  applyLaterAnswer: lateAnswer.optional(),
  statusLagMs: nonNeg.max(DAY_MS).optional(),
  refuseResend: z.enum(RESEND_REFUSALS).optional(),
  times: z.number().int().min(1).optional(),
  applyRate: z.number().min(0).max(1).optional(),
});

export const transferTokenSchema = z.strictObject({
  transfer_id: z.string().min(1).max(40),
  vpa: z.string().min(3).max(100),
});

export const rateLimitSchema = z.strictObject({
  endpoint: endpointId,
  perMinute: z.number().int().min(0).nullable(),
});

export const timingSchema = z.strictObject({
  pendingDelayMs: nonNeg.optional(),
  hangMs: nonNeg.optional(),
  batchDelayMs: nonNeg.optional(),
  acknowledgeDelayMs: nonNeg.optional(),
  lateReversalMs: nonNeg.optional(),
  tokenTtlSeconds: z.number().int().min(1).optional(),
});

export const allowedIpsSchema = z.strictObject({ ips: z.array(z.string().min(1)) });

export const faultModeSchema = z.strictObject({
  rate: z.number().min(0).max(1),
  seed: z.number().int(),
  endpoints: z.array(endpointId).min(1).optional(),
  kinds: z.array(z.enum(RANDOM_FAULT_KINDS)).min(1).optional(),
  lateMs: nonNeg.optional(),
  lateApplyMs: z
    .strictObject({ min: nonNeg.max(DAY_MS), max: nonNeg.max(DAY_MS) })
    .refine((r) => r.min <= r.max, 'min <= max')
    .optional(),
  lateApplyAnswer: lateAnswer.optional(),
  lagMs: nonNeg.max(DAY_MS).optional(),
  refusals: z.array(z.enum(RESEND_REFUSALS)).min(1).optional(),
  applyRate: z.number().min(0).max(1).optional(),
});

const rate = z.number().min(0).max(1);

export const webhookConfigSchema = z.strictObject({
  url: z
    .string()
    .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'an http(s) URL')
    .nullable()
    .optional(),
  version: z.enum(['v1', 'v2']).optional(),
  faults: z
    .strictObject({
      duplicateRate: rate.optional(),
      reorderWindowMs: nonNeg.optional(),
      delayMs: nonNeg.optional(),
      badSignatureRate: rate.optional(),
      dropRate: rate.optional(),
      seed: z.number().int().optional(),
    })
    .optional(),
  lowBalanceThreshold: amount.optional(),
});

export const webhookIncidentSchema = z.strictObject({
  beneficiaryId: z.string().max(100).optional(),
  reason: z.string().min(1).max(200),
});

const httpUrl = z
  .string()
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'an http(s) URL');

export const hostileSchema = z.strictObject({
  url: httpUrl.optional(),
  v1Url: httpUrl.optional(),
  v2Url: httpUrl.optional(),
  perSecond: z.number().positive().max(1000).optional(),
  variants: z.array(z.enum(HOSTILE_VARIANTS)).min(1).optional(),
  total: z.number().int().min(1).optional(),
  seed: z.number().int().optional(),
});
