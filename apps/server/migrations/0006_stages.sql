CREATE TABLE "stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'NOT_DEPLOYED' NOT NULL,
	"cloud_provider" text NOT NULL,
	"iac_tool" text NOT NULL,
	"aws_account_id" text,
	"aws_region" text,
	"tenant_id" text,
	"subscription_id" text,
	"gcp_project_id" text,
	"gcp_region" text,
	"gcp_zone" text,
	"copy_from" uuid,
	"last_deployed" timestamp with time zone,
	"last_deployment_id" uuid,
	"current_deployment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stages_project_name_key" ON "stages" USING btree ("project_id","name");