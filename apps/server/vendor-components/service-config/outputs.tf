output "config_json" {
  description = "The settings as JSON"
  value       = jsonencode(terraform_data.config.output)
}

output "revision" {
  description = "Identifier of the current configuration revision"
  value       = terraform_data.config.id
}

output "endpoint" {
  description = "Where the service is reached"
  value       = "https://${var.service_name}.${var.environment}.internal"
}

output "api_key" {
  description = "The key, for services that call this one"
  value       = var.api_key
  sensitive   = true
}
