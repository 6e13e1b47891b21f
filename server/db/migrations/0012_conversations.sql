CREATE TABLE "conversation_issues" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"cluster_id" text,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ingested_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"organization_id" text NOT NULL,
	"id" text NOT NULL,
	"source" text NOT NULL,
	"subject" text,
	"url" text,
	"attributes" jsonb,
	"occurred_at" timestamp with time zone,
	"parts" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ingested_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "conversations_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "issue_clusters" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"label" text NOT NULL,
	"summary" text,
	"icon" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversation_issues" ADD CONSTRAINT "conversation_issues_cluster_id_issue_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."issue_clusters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_issues" ADD CONSTRAINT "conversation_issues_organization_id_conversation_id_conversations_organization_id_id_fk" FOREIGN KEY ("organization_id","conversation_id") REFERENCES "public"."conversations"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_clusters" ADD CONSTRAINT "issue_clusters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_issues_recent_idx" ON "conversation_issues" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversation_issues_conversation_idx" ON "conversation_issues" USING btree ("organization_id","conversation_id");--> statement-breakpoint
CREATE INDEX "conversation_issues_cluster_idx" ON "conversation_issues" USING btree ("cluster_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_recent_idx" ON "conversations" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_source_idx" ON "conversations" USING btree ("organization_id","source","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_unprocessed_idx" ON "conversations" USING btree ("organization_id") WHERE processed_at IS NULL;--> statement-breakpoint
CREATE INDEX "issue_clusters_updated_idx" ON "issue_clusters" USING btree ("organization_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "issue_clusters_created_idx" ON "issue_clusters" USING btree ("organization_id","created_at","id");