import { ACCOUNT_FIELD_RULES } from './account.rules.js';
import { TRANSFER_FIELD_RULES } from './transfer.rules.js';

export type { FieldRule } from './builders.js';
export const FIELD_RULES = [...TRANSFER_FIELD_RULES, ...ACCOUNT_FIELD_RULES];
