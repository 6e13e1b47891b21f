CREATE TABLE "search_index_state" (
	"space_id" text PRIMARY KEY NOT NULL,
	"revision_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_pages" (
	"space_id" text NOT NULL,
	"page_id" text NOT NULL,
	"digest" text NOT NULL,
	"title" text NOT NULL,
	"path" text NOT NULL,
	"ancestors" jsonb NOT NULL,
	CONSTRAINT "search_pages_space_id_page_id_pk" PRIMARY KEY("space_id","page_id")
);
--> statement-breakpoint
CREATE TABLE "search_sections" (
	"space_id" text NOT NULL,
	"page_id" text NOT NULL,
	"ordinal" integer NOT NULL,
	"section_id" text NOT NULL,
	"title" text NOT NULL,
	"ranked_title" text NOT NULL,
	"body" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, ranked_title), 'A') || to_tsvector('english'::regconfig, body)) STORED NOT NULL,
	CONSTRAINT "search_sections_space_id_page_id_ordinal_pk" PRIMARY KEY("space_id","page_id","ordinal")
);
--> statement-breakpoint
ALTER TABLE "search_index_state" ADD CONSTRAINT "search_index_state_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_pages" ADD CONSTRAINT "search_pages_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_sections" ADD CONSTRAINT "search_sections_page_fk" FOREIGN KEY ("space_id","page_id") REFERENCES "public"."search_pages"("space_id","page_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_sections_tsv_idx" ON "search_sections" USING gin ("tsv");