export const rt = { beneId: 'bene1', amount: '100.00', transferId: 'tr_1' };
export const dt = {
  amount: '100.00',
  transferId: 'tr_1',
  beneDetails: { bankAccount: '026291800001191', ifsc: 'YESB0000262', name: 'A' },
};
export const cp = {
  token: 'card-token-secret-123',
  amount: '10.00',
  transferId: 'tr-1',
  cardType: 'DEBIT' as const,
};
export const bt = {
  batchTransferId: 'batch_1',
  batchFormat: 'BANK_ACCOUNT' as const,
  batch: [
    {
      transferId: 't1',
      amount: '10.50',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      name: 'A',
      phone: '9999999999',
    },
  ],
};
export const pvp = {
  transferId: 'tr_v2_1',
  transferAmount: '100.50',
  transferToken: 'transfer-token-secret',
};
export const sdk = {
  appId: 'app1',
  product: 'VKYC',
  metadata: { vkyc_request_id: 7 },
  authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
};
