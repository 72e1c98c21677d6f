export * from "./arithmetic";
export * from "./machine";
export * from "./parse";
export * from "./types";
export * from "./validate";
export * from "./words";
export * from "./story";
export * from "./locale";
