/**
 * `status_description` of the v2 Transfer object, per `status_code` (the provider's words where it
 * gives them, the sandbox's own otherwise). Data, like the error tables.
 */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  RECEIVED: 'Transfer request received and accepted for processing',
  PENDING: 'Transfer is pending at the bank',
  SENT_TO_BANK: 'Transfer sent to the partner bank, awaiting its answer',
  SCHEDULED_FOR_NEXT_WORKINGDAY: 'Transfer scheduled for the next working day',
  SENT_TO_BENEFICIARY: 'Amount debited, credit to the beneficiary not yet confirmed',
  COMPLETED: 'Payout initiated via the partner bank',
  INVALID_BENE_VPA: 'The beneficiary VPA is invalid',
  INVALID_BENE_ACCOUNT_OR_IFSC: 'The beneficiary bank account or IFSC is invalid',
  IMPS_MODE_FAIL: 'Transfer failed at the beneficiary bank',
  BENE_BANK_DECLINED: 'The beneficiary bank declined the transfer',
  BENE_BLACKLISTED: 'Transfers to this beneficiary are not allowed',
  INSUFFICIENT_BALANCE: 'Insufficient balance in the account',
  INVALID_ACCOUNT_FAIL: 'Reversed by the beneficiary bank: invalid account',
  ACCOUNT_FROZEN_OR_CLOSED: 'Reversed by the beneficiary bank: account frozen or closed',
  QUEUED: 'Transfer queued: the account balance is too low, it is sent once funded',
  APPROVAL_PENDING: 'Transfer waiting for approval in the dashboard',
  VELOCITY_CHECK_FAILED: 'Transfer waiting for approval: velocity check failed',
  TRANSFER_LIMIT_BREACH: 'Transfer waiting for approval: transfer limit breached',
  ANOMALY_DETECTION: 'Transfer waiting for approval: anomaly detected',
  APPROVED: 'Transfer approved in the dashboard',
  MANUALLY_REJECTED: 'Transfer rejected by a team member',
  REJECTED: 'Transfer rejected',
};

export function v2StatusDescription(statusCode: string): string {
  return DESCRIPTIONS[statusCode] ?? statusCode;
}
