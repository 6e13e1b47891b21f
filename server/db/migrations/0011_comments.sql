CREATE TABLE "comment_reactions" (
	"subject_id" text NOT NULL,
	"user_id" text NOT NULL,
	"emoji" text NOT NULL,
	"reacted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "comment_reactions_subject_id_emoji_user_id_pk" PRIMARY KEY("subject_id","emoji","user_id")
);
--> statement-breakpoint
CREATE TABLE "comment_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"comment_id" text NOT NULL,
	"posted_by" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL,
	"posted_by" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"body" text NOT NULL,
	"page_id" text,
	"node_id" text,
	"table_record" text,
	"table_definition" text,
	"revision_id" text NOT NULL,
	"status" text NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"replies" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "comments_status_check" CHECK (status IN ('open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_replies_comment_idx" ON "comment_replies" USING btree ("comment_id","id");--> statement-breakpoint
CREATE INDEX "comments_space_idx" ON "comments" USING btree ("space_id","id");--> statement-breakpoint
CREATE INDEX "comments_page_idx" ON "comments" USING btree ("space_id","page_id","id");