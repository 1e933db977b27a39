import { type Operator } from '../../operators.js';

/**
 * The identity that makes approvers distinct (issue 30): one approval per identity per hold. Today
 * the operator's id; where operators are tied to the humans behind them (a token to the person who
 * issued it, a console session to its issuer and subject), this is the one place to say so.
 */
export function approverIdentity(who: Operator): string {
  return who.id;
}

/** An automation token (`token:<name>`) acts for a program: it never decides an approval. */
export function isAutomation(who: Operator): boolean {
  return who.id.startsWith('token:');
}
