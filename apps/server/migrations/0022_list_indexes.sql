DROP INDEX "builds_pipeline_created_idx";--> statement-breakpoint
CREATE INDEX "builds_project_created_idx" ON "builds" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "builds_pipeline_created_idx" ON "builds" USING btree ("pipeline_id","created_at","id");