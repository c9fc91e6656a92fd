variable "service_name" {
  type        = string
  description = "Name of the service"
}

variable "environment" {
  type        = string
  description = "Environment the service runs in"
  default     = "dev"
}

variable "log_level" {
  type        = string
  description = "Log level of the service"
  default     = "info"
}

variable "replicas" {
  type        = number
  description = "How many instances run"
  default     = 1
}

variable "api_key" {
  type        = string
  description = "Key the service calls its backend with"
  sensitive   = true
  default     = ""
}

variable "backend_url" {
  type        = string
  description = "Endpoint of the backend the service talks to"
  default     = ""
}
