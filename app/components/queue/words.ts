/** The queue page's words live in common/ (#common/queue-words): the light page without Remix says the same (decision 241). */
export * from "#common/queue-words";
