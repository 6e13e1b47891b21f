CREATE TABLE "data_migrations" (
	"name" text PRIMARY KEY NOT NULL,
	"position" jsonb NOT NULL,
	"rows_changed" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone
);
