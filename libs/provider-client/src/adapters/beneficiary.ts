import { z } from 'zod';
import { type LegacyDecoder } from '../core/legacy-classify.js';
import { type V2Decoder } from '../core/v2-classify.js';

/**
 * A beneficiary in the service's terms, the same on v1 and v2 accounts. Account number, VPA,
 * phone and email are personal data: whoever shows this outside the connector masks them.
 */
export interface ProviderBeneficiary {
  readonly beneId: string;
  readonly name: string;
  readonly bankAccount?: string;
  readonly ifsc?: string;
  readonly vpa?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly address1?: string;
  readonly city?: string;
  readonly state?: string;
  readonly pincode?: string;
  /** v2 `beneficiary_status` (VERIFIED, INVALID, INITIATED, CANCELLED, FAILED, DELETED); v1: absent. */
  readonly status?: string;
  /** When the provider registered it (v2 `added_on`); v1: absent. */
  readonly addedOn?: string;
}

/** The fields a caller sends to register one. */
export type BeneficiaryDetails = Omit<ProviderBeneficiary, 'status' | 'addedOn'>;

/** Personal values of a request: cut out of any provider message that echoes them. */
export const personalValues = (b: Partial<BeneficiaryDetails>): readonly (string | undefined)[] => [
  b.bankAccount,
  b.vpa,
  b.phone,
  b.email,
];

const text = z
  .string()
  .nullish()
  .transform((v) => (v === null || v === undefined || v === '' ? undefined : v));

/** Drops absent fields, so two records compare by what they hold. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const v1Schema = z.object({
  beneId: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  email: text,
  phone: text,
  address1: text,
  bankAccount: text,
  ifsc: text,
  vpa: text,
  city: text,
  state: text,
  pincode: text,
});

/** `data` of v1 getBeneficiary. */
export const decodeV1Beneficiary: LegacyDecoder<ProviderBeneficiary> = (env) => {
  const p = v1Schema.safeParse(env.data);
  return p.success ? { data: compact(p.data) } : undefined;
};

const v2Schema = z.object({
  beneficiary_id: z.string(),
  beneficiary_name: z.string(),
  beneficiary_instrument_details: z
    .object({ bank_account_number: text, bank_ifsc: text, ifsc: text, vpa: text })
    .nullish(),
  beneficiary_contact_details: z
    .object({
      beneficiary_email: text,
      beneficiary_phone: text,
      beneficiary_address: text,
      beneficiary_city: text,
      beneficiary_state: text,
      beneficiary_postal_code: text,
    })
    .nullish(),
  beneficiary_status: text,
  added_on: text,
});

export function fromV2Beneficiary(body: unknown): ProviderBeneficiary | undefined {
  const p = v2Schema.safeParse(body);
  if (!p.success) return undefined;
  const b = p.data;
  const i = b.beneficiary_instrument_details;
  const c = b.beneficiary_contact_details;
  return compact({
    beneId: b.beneficiary_id,
    name: b.beneficiary_name,
    bankAccount: i?.bank_account_number,
    // The SDK's type names it `ifsc`, the OAS examples `bank_ifsc`: both are read.
    ifsc: i?.bank_ifsc ?? i?.ifsc,
    vpa: i?.vpa,
    email: c?.beneficiary_email,
    phone: c?.beneficiary_phone,
    address1: c?.beneficiary_address,
    city: c?.beneficiary_city,
    state: c?.beneficiary_state,
    pincode: c?.beneficiary_postal_code,
    status: b.beneficiary_status,
    addedOn: b.added_on,
  });
}

/** A 2xx carrying the Beneficiary object: success (the HTTP status already said so). */
export const decodeV2Beneficiary: V2Decoder<ProviderBeneficiary> = (body) => {
  const data = fromV2Beneficiary(body);
  return data ? { data, outcome: 'success', status: data.status } : undefined;
};
