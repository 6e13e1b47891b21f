CREATE TABLE "change_request_reviewers" (
	"change_request_id" text NOT NULL,
	"user_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"revision_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "change_request_reviewers_change_request_id_user_id_pk" PRIMARY KEY("change_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "change_request_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"change_request_id" text NOT NULL,
	"reviewer_id" text NOT NULL,
	"requested_by" text,
	"status" text NOT NULL,
	"revision_id" text NOT NULL,
	"comment_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "change_request_reviews_status_check" CHECK (status IN ('approved', 'changes-requested'))
);
--> statement-breakpoint
ALTER TABLE "change_requests" ADD COLUMN "conversations_issues_cluster_id" text;--> statement-breakpoint
ALTER TABLE "change_request_reviewers" ADD CONSTRAINT "change_request_reviewers_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviewers" ADD CONSTRAINT "change_request_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviewers" ADD CONSTRAINT "change_request_reviewers_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_request_reviewers_user_idx" ON "change_request_reviewers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "change_request_reviews_list_idx" ON "change_request_reviews" USING btree ("change_request_id","created_at","id");--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_conversations_issues_cluster_id_issue_clusters_id_fk" FOREIGN KEY ("conversations_issues_cluster_id") REFERENCES "public"."issue_clusters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_requests_cluster_idx" ON "change_requests" USING btree ("conversations_issues_cluster_id");