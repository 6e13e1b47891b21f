CREATE TABLE "invite_created_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD COLUMN "sso" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invite_created_users" ADD CONSTRAINT "invite_created_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_created_users" ADD CONSTRAINT "invite_created_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invites_token_idx" ON "organization_invites" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "content_grants_space_idx" ON "content_grants" USING btree ("space_id") WHERE space_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "content_grants_collection_idx" ON "content_grants" USING btree ("collection_id") WHERE collection_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "content_grants_site_idx" ON "content_grants" USING btree ("site_id") WHERE site_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_email_check" CHECK ((email IS NULL) = (token_hash IS NULL));--> statement-breakpoint
-- The strongest grant of the user `uid` or of their teams on a space, as two index probes: the user's own
-- grant (content_grants_space_user_idx) and their teams' (team_members by member, then the space's grant of
-- each team). The OR of the first form read every grant on the space, once per space listed.
CREATE OR REPLACE FUNCTION space_granted(p_space_id text, p_organization_id text, uid text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rank_role(GREATEST(
    (SELECT role_rank(g.role) FROM content_grants g WHERE g.space_id = p_space_id AND g.user_id = uid),
    (SELECT max(role_rank(g.role)) FROM team_members tm JOIN content_grants g ON g.team_id = tm.team_id AND g.space_id = p_space_id
      WHERE tm.organization_id = p_organization_id AND tm.user_id = uid)))
$$;
