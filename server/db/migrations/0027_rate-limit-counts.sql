CREATE TABLE "rate_limit_counts" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_counts_key_window_start_pk" PRIMARY KEY("key","window_start")
);
