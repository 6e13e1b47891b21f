-- Two indexes the lists of a workspace of real size need (bench/scale.ts, issue 52): a user's teams in any
-- organization, which collection_chain_access (migration 0037) looks up for every space a role is computed
-- on (without it, a scan of every team membership per space); and a space's open comments, counted for
-- every Space answered, from the index alone.
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_space_open_idx" ON "comments" USING btree ("space_id") WHERE status = 'open';