export const LEGACY_TRANSFER_MODES = [
  'banktransfer',
  'neft',
  'imps',
  'rtgs',
  'upi',
  'wallet_a',
  'wallet_b',
] as const;
export type LegacyTransferMode = (typeof LEGACY_TRANSFER_MODES)[number];
