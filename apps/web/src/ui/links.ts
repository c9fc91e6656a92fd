/** External pages of the product (placeholders until the project site publishes them). */
export const EXTERNAL_LINKS = {
  help: 'https://gantry.dev/docs',
  privacy: 'https://gantry.dev/privacy-policy',
  terms: 'https://gantry.dev/terms-of-service',
  cookies: 'https://gantry.dev/cookie-policy',
  beta: 'https://gantry.dev/beta',
  booking: 'https://gantry.dev/book-a-demo',
} as const;
