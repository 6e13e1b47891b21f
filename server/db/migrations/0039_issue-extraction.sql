ALTER TABLE "conversation_issues" ADD COLUMN "extracted_by" text;--> statement-breakpoint
ALTER TABLE "conversation_issues" ADD COLUMN "heuristic_reason" text;