CREATE TABLE "advisor_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"aws_account_id" text NOT NULL,
	"aws_region" text NOT NULL,
	"tag_key" text DEFAULT '' NOT NULL,
	"tag_value" text DEFAULT '' NOT NULL,
	"stats" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advisor_results" ADD CONSTRAINT "advisor_results_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "advisor_results_key_idx" ON "advisor_results" USING btree ("project_id","aws_account_id","aws_region","tag_key","tag_value");