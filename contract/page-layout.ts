// The one layout every document page has on this server: the published site (server/published/) shows every
// page the same way. A plain constant, with no schema library, so the server reads it too (revision-view.ts).
export const publishedPageLayout = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: false,
  tags: false,
  actions: true,
  anchors: true,
} as const;
