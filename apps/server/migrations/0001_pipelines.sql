CREATE TABLE "git_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"type" text NOT NULL,
	"account_name" text NOT NULL,
	"external_id" text NOT NULL,
	"access_token_sealed" text NOT NULL,
	"refresh_token_sealed" text,
	"token_expires_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipelines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"git_account_id" uuid NOT NULL,
	"repository_url" text NOT NULL,
	"repository_full_name" text NOT NULL,
	"branch_filter" text NOT NULL,
	"automated_trigger" boolean NOT NULL,
	"work_dir" text NOT NULL,
	"modified_files" text NOT NULL,
	"environment_variables" jsonb NOT NULL,
	"spec_yaml" text,
	"webhook_id" text,
	"webhook_secret_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "build_artifacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"build_id" uuid NOT NULL,
	"step" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"location" text NOT NULL,
	"files" integer NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "build_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"build_id" uuid NOT NULL,
	"step" text NOT NULL,
	"seq" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "build_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"build_id" uuid NOT NULL,
	"name" text NOT NULL,
	"stage" text,
	"type" text NOT NULL,
	"position" integer NOT NULL,
	"status" text,
	"error_message" text,
	"reports" jsonb,
	"start_date" timestamp with time zone,
	"stop_date" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "builds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"status" text NOT NULL,
	"branch" text NOT NULL,
	"commit_sha" text,
	"commit_message" text,
	"commit_author" text,
	"commit_avatar" text,
	"trigger" text NOT NULL,
	"triggered_by" uuid,
	"spec_yaml" text,
	"stages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_message" text,
	"abort_requested" boolean DEFAULT false NOT NULL,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"start_date" timestamp with time zone,
	"stop_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "git_accounts" ADD CONSTRAINT "git_accounts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_accounts" ADD CONSTRAINT "git_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_git_account_id_git_accounts_id_fk" FOREIGN KEY ("git_account_id") REFERENCES "public"."git_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "build_artifacts" ADD CONSTRAINT "build_artifacts_build_id_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "build_logs" ADD CONSTRAINT "build_logs_build_id_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "build_steps" ADD CONSTRAINT "build_steps_build_id_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builds" ADD CONSTRAINT "builds_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builds" ADD CONSTRAINT "builds_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "git_accounts_project_external_key" ON "git_accounts" USING btree ("project_id","type","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pipelines_project_name_key" ON "pipelines" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "pipelines_git_account_idx" ON "pipelines" USING btree ("git_account_id");--> statement-breakpoint
CREATE INDEX "build_artifacts_build_idx" ON "build_artifacts" USING btree ("build_id","step");--> statement-breakpoint
CREATE INDEX "build_logs_build_step_idx" ON "build_logs" USING btree ("build_id","step","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "build_steps_build_name_key" ON "build_steps" USING btree ("build_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "builds_pipeline_number_key" ON "builds" USING btree ("pipeline_id","number");--> statement-breakpoint
CREATE INDEX "builds_pipeline_created_idx" ON "builds" USING btree ("pipeline_id","created_at");--> statement-breakpoint
CREATE INDEX "builds_project_status_idx" ON "builds" USING btree ("project_id","status");