CREATE TABLE "search_terms" (
	"space_id" text NOT NULL,
	"lexeme" text NOT NULL,
	"pages" integer NOT NULL,
	CONSTRAINT "search_terms_space_id_lexeme_pk" PRIMARY KEY("space_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "search_index_state" ADD COLUMN "pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_terms" ADD CONSTRAINT "search_terms_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_pages_title_tsv_idx" ON "search_pages" USING gin ("title_tsv");