terraform {
  required_version = ">= 1.4"
}

locals {
  settings = {
    service     = var.service_name
    environment = var.environment
    log_level   = var.log_level
    replicas    = var.replicas
    backend_url = var.backend_url
  }
}

# The configuration as a resource: a new revision whenever a setting changes.
resource "terraform_data" "config" {
  input            = local.settings
  triggers_replace = [sha256(jsonencode(local.settings)), sha256(var.api_key)]
}
