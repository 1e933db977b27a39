import { createHash } from 'node:crypto';

export interface TestOperator {
  readonly id: string;
  readonly role: 'viewer' | 'operator' | 'approver';
  readonly token: string;
}

/** OPS_OPERATORS for these operators: each token configured as its SHA-256, as in production. */
export function operatorsEnv(ops: readonly TestOperator[]): string {
  return ops.map((o) => `${o.id}:${o.role}:${createHash('sha256').update(o.token).digest('hex')}`).join(',');
}
