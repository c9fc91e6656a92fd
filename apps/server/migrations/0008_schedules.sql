CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'ENABLED' NOT NULL,
	"start_expression" text NOT NULL,
	"stop_expression" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"aws_account_id" text NOT NULL,
	"aws_region" text NOT NULL,
	"resources_tag_key" text NOT NULL,
	"resources_tag_value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedules_project_idx" ON "schedules" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "schedules_tag_idx" ON "schedules" USING btree ("resources_tag_key","resources_tag_value");