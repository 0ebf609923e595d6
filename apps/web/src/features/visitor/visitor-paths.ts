// The visitor area's own paths. Other '/vistor/…' paths (the visitor list and API logins of the menu) are staff
// screens of the console: menu paths are '/<area>/<screen>' and the area is spelt the same. Kept apart from the
// routes so the shell decides without loading the visitor area.
const VISITOR_AREA = /^\/vistor(\/(login|reg|panel)|\/user(\/.*)?)?\/?$/;

export function isVisitorPath(pathname: string): boolean {
  return VISITOR_AREA.test(pathname);
}
