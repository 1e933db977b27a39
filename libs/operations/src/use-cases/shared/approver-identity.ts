import { type Operator } from '../../operators.js';

/**
 * The identity that makes approvers distinct (issue 30): one approval per human per hold. An
 * operator's id is the human behind them (a configured operator's id, a console session's
 * `oidc:<iss>#<sub>`, an automation token's issuer), so two tokens of one person, or a token and
 * its issuer's session, are one approver.
 */
export function approverIdentity(who: Operator): string {
  return who.id;
}

/** An automation token acts for a program: it never decides an approval, whoever issued it. */
export function isAutomation(who: Operator): boolean {
  return who.via.kind === 'token';
}
