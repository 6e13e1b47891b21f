// Ids and values shared by the examples of several areas, so that the mock's answers refer to each
// other consistently (the space of a collection example is the space example, and so on).
export const ex = {
  baseUrl: 'https://api.docs.example.com',
  appUrl: 'https://app.docs.example.com',
  orgId: 'org_01JD3Q6Z8N4TQVJ',
  orgId2: 'org_01JD3QA1C7MKW2P',
  userId: 'usr_01JD3Q6Z9B8XKRD',
  userId2: 'usr_01JD3QB5N1HEZ4Y',
  spaceId: 'spc_01JD3Q7F2V6RM0A',
  spaceId2: 'spc_01JD3Q7H4KX9T3C',
  collectionId: 'col_01JD3Q7C1P5WS8E',
  collectionId2: 'col_01JD3Q7D9QJ2N6F',
  revisionId: 'rev_01JD3Q7F2V6RM0B',
  createdAt: '2026-03-14T09:26:53.000Z',
  updatedAt: '2026-05-02T16:41:07.000Z',
} as const;
