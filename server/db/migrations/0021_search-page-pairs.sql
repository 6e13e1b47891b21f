CREATE TABLE "search_page_pairs" (
	"space_id" text NOT NULL,
	"page_id" text NOT NULL,
	"pairs" text[] NOT NULL,
	CONSTRAINT "search_page_pairs_space_id_page_id_pk" PRIMARY KEY("space_id","page_id")
);
--> statement-breakpoint
ALTER TABLE "search_page_pairs" ADD CONSTRAINT "search_page_pairs_page_fk" FOREIGN KEY ("space_id","page_id") REFERENCES "public"."search_pages"("space_id","page_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_page_pairs_idx" ON "search_page_pairs" USING gin ("pairs");