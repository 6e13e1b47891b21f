-- File bytes leave content_files for content-addressed blobs (server/blobs/): one row per sha256 in
-- `blobs`, the bytes of those kept in the database in 1 MiB chunks in `blob_chunks`. Existing files keep
-- their bytes in the database backend; the same bytes in many spaces become one blob.
CREATE TABLE "blob_chunks" (
	"sha256" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_sha256_seq_pk" PRIMARY KEY("sha256","seq")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"backend" text NOT NULL,
	"stored_at" timestamp with time zone,
	"touched_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "blobs_backend_check" CHECK (backend IN ('database', 'folder', 's3')),
	CONSTRAINT "blobs_sha256_check" CHECK ("blobs"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "content_files" ALTER COLUMN "size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "content_files" ADD COLUMN "sha256" text;--> statement-breakpoint
UPDATE "content_files" SET "sha256" = encode(sha256("bytes"), 'hex');--> statement-breakpoint
INSERT INTO "blobs" ("sha256", "size", "backend", "stored_at", "touched_at", "created_at")
	SELECT DISTINCT ON ("sha256") "sha256", length("bytes"), 'database', now(), now(), now() FROM "content_files";--> statement-breakpoint
INSERT INTO "blob_chunks" ("sha256", "seq", "bytes")
	SELECT DISTINCT ON (f."sha256", s.seq) f."sha256", s.seq, substring(f."bytes" FROM s.seq * 1048576 + 1 FOR 1048576)
	FROM "content_files" f, generate_series(0, (length(f."bytes") + 1048575) / 1048576 - 1) AS s(seq);--> statement-breakpoint
ALTER TABLE "content_files" ALTER COLUMN "sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "content_files" DROP COLUMN "bytes";--> statement-breakpoint
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_touched_idx" ON "blobs" USING btree ("touched_at");--> statement-breakpoint
ALTER TABLE "content_files" ADD CONSTRAINT "content_files_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_files_sha256_idx" ON "content_files" USING btree ("sha256");
