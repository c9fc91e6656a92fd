CREATE TABLE "removed_stage_deployments" (
	"deployment_id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"stage_id" uuid NOT NULL,
	"stage_name" text NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "removed_stage_deployments" ADD CONSTRAINT "removed_stage_deployments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "removed_stage_deployments_project_at_idx" ON "removed_stage_deployments" USING btree ("project_id","at");