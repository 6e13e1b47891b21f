// GET /v1/integrations/{name}/assets/{file}: the icon and preview images of an integration, the URLs its
// `urls.icon` and `previewImages` give. Served without a token (browsers load them in <img>), so only for
// public and unlisted integrations; private ones answer 404 like unknown files. Its path is the contract's
// (getIntegrationAsset, contract/downloads.ts).
import { and, eq, ne } from 'drizzle-orm';
import type { RequestHandler } from 'express';
import type { Db } from '../db/client.js';
import { integrationAssets, integrations } from '../db/schema/index.js';
import { errorBody } from '../http/errors.js';

/** The Express handler serving the stored images, typed by their sniffed signature. */
export function integrationAssetsRoute(db: Db): RequestHandler {
  return async (req, res, next) => {
    try {
      const { integrationName, file } = req.params as { integrationName: string; file: string };
      const [asset] = await db
        .select({ contentType: integrationAssets.contentType, data: integrationAssets.data })
        .from(integrationAssets)
        .innerJoin(integrations, eq(integrations.name, integrationAssets.integrationName))
        .where(and(eq(integrationAssets.integrationName, integrationName), eq(integrationAssets.file, file), ne(integrations.visibility, 'private')));
      if (!asset) {
        res.status(404).json(errorBody(404, `No asset ${file} for the integration ${integrationName}`));
        return;
      }
      // An SVG may hold scripts: the policy keeps them inert when the image is opened directly.
      res
        .status(200)
        .set({
          'Content-Type': asset.contentType,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          'Cache-Control': 'public, max-age=300',
        })
        .send(Buffer.from(asset.data, 'base64'));
    } catch (err) {
      next(err);
    }
  };
}
