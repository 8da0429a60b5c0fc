// Types of the <rate-limit-playground> element (see ratelab.d.ts for the options,
// which are its attributes).
export class RateLimitPlayground extends HTMLElement {
  /** The element's current state as a query string (for embed.html?… or the page). */
  readonly query: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'rate-limit-playground': RateLimitPlayground;
  }
}
