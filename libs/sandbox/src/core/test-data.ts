/**
 * Test data that drives outcomes, as in the real provider's sandbox (provider-facts.md) plus a
 * few sandbox additions so every documented answer can be produced by input.
 */
export type Outcome =
  | 'success'
  | 'invalidAccount'
  | 'invalidIfsc'
  | 'pending'
  | 'pendingThenSuccess'
  | 'pendingThenFailure'
  | 'successThenReversed'
  | 'hangThenSuccess'
  // sandbox additions
  | 'scheduled'
  | 'receivedThenSuccess'
  | 'beneNotAllowed'
  | 'beneNotFound'
  | 'bankFailed'
  // the provider's long waits (issue 29; docs/SANDBOX.md, "Long waits")
  | 'errorThenSuccess'
  | 'approvalPending'
  | 'velocityCheck'
  | 'limitBreach'
  | 'anomaly'
  | 'nextWorkingDay'
  | 'lateReversal'
  | 'queuedUntilFunded';

export interface TestAccount {
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly outcome: Outcome;
}

export const TEST_ACCOUNTS: readonly TestAccount[] = [
  { bankAccount: '026291800001191', ifsc: 'YESB0000262', outcome: 'success' },
  { bankAccount: '026291800001190', ifsc: 'YESB0000262', outcome: 'invalidAccount' },
  { bankAccount: '2640101002729', ifsc: 'CNRR0002640', outcome: 'invalidIfsc' },
  { bankAccount: '007711000031', ifsc: 'HDFC0000077', outcome: 'pending' },
  { bankAccount: '00224412311300', ifsc: 'YESB0000001', outcome: 'pendingThenSuccess' },
  { bankAccount: '7766666351000', ifsc: 'YESB0000001', outcome: 'pendingThenFailure' },
  { bankAccount: '02014457596969', ifsc: 'CITI0000001', outcome: 'successThenReversed' },
  { bankAccount: '34978321547298', ifsc: 'KKBK0000001', outcome: 'hangThenSuccess' },
  { bankAccount: '026291800001192', ifsc: 'YESB0000262', outcome: 'scheduled' },
  { bankAccount: '00224412311301', ifsc: 'YESB0000001', outcome: 'receivedThenSuccess' },
  { bankAccount: '000000000403', ifsc: 'YESB0000262', outcome: 'beneNotAllowed' },
  { bankAccount: '000000000404', ifsc: 'YESB0000262', outcome: 'beneNotFound' },
  // The provider's long waits (docs/SANDBOX.md, "Long waits").
  { bankAccount: '026291800001193', ifsc: 'YESB0000262', outcome: 'errorThenSuccess' },
  { bankAccount: '026291800001194', ifsc: 'YESB0000262', outcome: 'approvalPending' },
  { bankAccount: '026291800001195', ifsc: 'YESB0000262', outcome: 'velocityCheck' },
  { bankAccount: '026291800001196', ifsc: 'YESB0000262', outcome: 'limitBreach' },
  { bankAccount: '026291800001197', ifsc: 'YESB0000262', outcome: 'anomaly' },
  { bankAccount: '026291800001198', ifsc: 'YESB0000262', outcome: 'nextWorkingDay' },
  { bankAccount: '026291800001199', ifsc: 'YESB0000262', outcome: 'lateReversal' },
  { bankAccount: '026291800001189', ifsc: 'YESB0000262', outcome: 'queuedUntilFunded' },
  // The account of the test beneficiary BENE42 (TEST_BENEFICIARIES): pays.
  { bankAccount: '026291800004242', ifsc: 'YESB0000262', outcome: 'success' },
];

/**
 * Beneficiaries every sandbox account starts with, registered a day before the sandbox started
 * (past the provider's 30-minute wait), so the contract's examples (docs/CONTRACTS.md: a standard
 * transfer to BENE42, its id looked up by account, its history, reading it) run as written.
 */
export const TEST_BENEFICIARIES = [
  {
    beneId: 'BENE42',
    name: 'Asha Rao',
    email: 'asha@example.com',
    phone: '9876543210',
    address1: '12 MG Road',
    bankAccount: '026291800004242',
    ifsc: 'YESB0000262',
    vpa: '',
    city: '',
    state: '',
    pincode: '',
  },
] as const;

export const SUCCESS_VPA = 'success@upi';
export const FAILURE_VPA = 'failure@upi';
/** A VPA whose transfer token points at no instrument (v2 `resource_not_found`). */
export const MISSING_INSTRUMENT_VPA = 'missing@upi';
/** Wallet transfers to this phone fail ("Wallet transfer failed"); other phones succeed. */
export const FAILING_WALLET_PHONE = '9999999999';

export const CARD_TOKENS = {
  success: ['4718610000000001', '5200000000000007'],
  failure: ['4718610000000019', '5200000000000015'],
  /** Issued against a bank account the sandbox treats as invalid (422 invalid bank account or IFSC). */
  invalidAccount: '4718610000000027',
} as const;

/** Payment instruments (fund sources) of every sandbox account. */
export const PAYMENT_INSTRUMENTS: Readonly<Record<string, readonly string[] | 'all'>> = {
  PI_MAIN: 'all',
  PI_UPI: ['upi'],
};

/** Recharge accounts for internal transfers: configured, and known but not configured. */
export const RECHARGE_ACCOUNTS: Readonly<Record<string, 'configured' | 'notConfigured'>> = {
  RA0001: 'configured',
  RA0002: 'notConfigured',
};

export const IFSC_RE = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** Outcome of a bank transfer. Unknown but well-formed details fail at the bank. */
export function bankOutcome(bankAccount: string, ifsc: string): Outcome {
  const hit = TEST_ACCOUNTS.find((a) => a.bankAccount === bankAccount && a.ifsc === ifsc);
  if (hit) return hit.outcome;
  if (!IFSC_RE.test(ifsc)) return 'invalidIfsc';
  return 'bankFailed';
}

export function vpaOutcome(vpa: string): Outcome {
  return vpa === SUCCESS_VPA ? 'success' : 'bankFailed';
}

/**
 * The merchant's own source (settlement) account: Create Beneficiary V2 refuses it (422
 * `beneficiary_account_same_as_source`). A sandbox addition.
 */
export const SOURCE_ACCOUNT = { bankAccount: '000100020003', ifsc: 'YESB0000262' } as const;

/** The IFSC of the provider's virtual accounts: Create Beneficiary V2 refuses them (422 `vba_bene_not_allowed`). */
export const VIRTUAL_ACCOUNT_IFSC = 'YESB0CMSNOC';
