// The Story Assistant applies an edited suggestion with the same rule the API answers with.
export { SUGGESTED_TITLE_MAX, parseSuggestion } from "../../db/validation";
