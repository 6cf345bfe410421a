export * from "./accounts";
export * from "./organizations";
export * from "./email";
export * from "./events";
export * from "./orders";
export * from "./jobs";
export * from "./payments";
