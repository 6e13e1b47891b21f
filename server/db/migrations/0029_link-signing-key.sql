-- The key file download links are signed with (server/content/file-links.ts): made once here, from two
-- random UUIDs (gen_random_uuid draws from a cryptographic source), so every process reads the same one.
INSERT INTO "link_signing_keys" ("name", "secret", "created_at")
VALUES ('files', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), now())
ON CONFLICT ("name") DO NOTHING;
