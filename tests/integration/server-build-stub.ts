// The real module exists only under the React Router Vite plugin; pages are tested in the browser suite.
export const routes = {};
export const entry = { module: {} };
export default {};
