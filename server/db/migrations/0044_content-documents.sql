CREATE TABLE "content_documents" (
	"hash" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL
);
