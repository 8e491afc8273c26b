/**
 * The one Painless source of S2: the level-10 cell of a point, computed in
 * the cluster exactly as the core (s2js) computes it. Every script geoshard
 * sends is built from PAINLESS_S2: the routing ingest pipeline (pipeline.ts
 * ROUTING_SCRIPT) and the search-time scripts of the engine paths of
 * `geoshard cells` and `geoshard audit` (src/ops/cells/cellsEngine.ts,
 * src/ops/audit/auditEngine.ts). There is no second copy.
 *
 * The functions (Painless user functions, declared before a script's
 * statements):
 *   int s2Ordinal(double lat, double lng)
 *       the level-10 curve ordinal (face << 20 | Hilbert position, in
 *       [0, 6 * 2^20)) of a point in degrees: s2.LatLng.fromDegrees → Point →
 *       face, u, v → s, t → i, j → the Hilbert position of the level-10
 *       parent, in s2js's order of operations, with StrictMath (fdlibm, as
 *       V8's Math.sin/cos are), so a point a hair from a cell edge falls in
 *       the same cell in the cluster and in the core.
 *   String s2Token(int ordinal)
 *       the level-10 cell token (6 hex digits) of an ordinal (core cellToken).
 *   int s2Segment(List starts, int ordinal)
 *       the last index k with starts[k] <= ordinal (starts ascending, starts[0]
 *       = 0): the range of a routing table holding the ordinal.
 *   int s2QuantizedOrdinal(double lat, double lng)
 *       for a point read from geo_point doc values (the stored point lies in
 *       [lat, lat + 180/2^32) × [lng, lng + 360/2^32)): its ordinal when the
 *       four corners of that box widened by one step each way are in one cell,
 *       else -1 (the box straddles a cell edge: read the exact point from
 *       _source). Mirrors core/audit.ts quantizedCellAt, corner for corner.
 *   double[] s2SourcePoint(def v)
 *       a _source geo_point as [lat, lng] (degrees), or null: the forms
 *       opensearch/documentFields.ts pointOf reads ({lat, lon} numbers, "lat,lon"
 *       of plain decimals, [lon, lat] numbers, a GeoJSON Point), and for an
 *       array of points its first (cellsReader's sourcePoint).
 *
 * Pure TypeScript (no Node types); constant text, so every script built from
 * it compiles once per node.
 */

/** The Painless functions (see the top of this file). Prepend to a script's statements. */
export const PAINLESS_S2 = `
int s2Ordinal(double lat, double lng) {
  // s2.LatLng.fromDegrees, then Point.fromLatLng.
  double deg = Math.PI / 180;
  double phi = lat * deg;
  double theta = lng * deg;
  double cosphi = StrictMath.cos(phi);
  double x = StrictMath.cos(theta) * cosphi;
  double y = StrictMath.sin(theta) * cosphi;
  double z = StrictMath.sin(phi);
  // face (Vector.largestComponent, then the sign), then validFaceXYZToUV.
  double ax = Math.abs(x);
  double ay = Math.abs(y);
  double az = Math.abs(z);
  int f;
  if (ax > ay) { f = ax > az ? 0 : 2; } else { f = ay > az ? 1 : 2; }
  if ((f == 0 && x < 0) || (f == 1 && y < 0) || (f == 2 && z < 0)) f += 3;
  double u;
  double v;
  if (f == 0) { u = y / x; v = z / x; }
  else if (f == 1) { u = -x / y; v = z / y; }
  else if (f == 2) { u = -x / z; v = -y / z; }
  else if (f == 3) { u = z / x; v = y / x; }
  else if (f == 4) { u = z / y; v = -x / y; }
  else { u = -y / z; v = -x / z; }
  // uvToST, then stToIJ (MAX_SIZE = 2^30, clamped to [0, 2^30 - 1]).
  double su = u >= 0 ? 0.5 * StrictMath.sqrt(1 + 3 * u) : 1 - 0.5 * StrictMath.sqrt(1 - 3 * u);
  double sv = v >= 0 ? 0.5 * StrictMath.sqrt(1 + 3 * v) : 1 - 0.5 * StrictMath.sqrt(1 - 3 * v);
  long li = (long) Math.floor(1073741824.0 * su);
  long lj = (long) Math.floor(1073741824.0 * sv);
  int i = (int) (li < 0 ? 0 : (li > 1073741823 ? 1073741823 : li));
  int j = (int) (lj < 0 ? 0 : (lj > 1073741823 ? 1073741823 : lj));
  // fromFaceIJ's Hilbert curve, the ten levels of a level-10 parent: ijToPos and posToOrientation.
  int[] ijToPos = new int[] {0, 1, 3, 2, 0, 3, 1, 2, 2, 3, 1, 0, 2, 1, 3, 0}; // [orientation][ij], flat
  int[] posToOrientation = new int[] {1, 0, 0, 3};
  int orientation = f & 1;
  int pos = 0;
  for (int k = 29; k >= 20; k--) {
    int p = ijToPos[(orientation << 2) | (((i >> k) & 1) << 1) | ((j >> k) & 1)];
    pos = (pos << 2) | p;
    orientation ^= posToOrientation[p];
  }
  return (f << 20) | pos;
}
String s2Token(int ordinal) {
  // The level-10 token: the id's top 24 bits (face, 20 position bits, the level's 1 bit) as 6 hex digits.
  int bits = (ordinal << 1) | 1;
  String hex = '0123456789abcdef';
  String token = '';
  for (int k = 20; k >= 0; k -= 4) { int d = (bits >> k) & 15; token += hex.substring(d, d + 1); }
  return token;
}
int s2Segment(List starts, int ordinal) {
  int lo = 0;
  int hi = starts.size() - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (((Number) starts.get(mid)).intValue() <= ordinal) lo = mid; else hi = mid - 1;
  }
  return lo;
}
int s2QuantizedOrdinal(double lat, double lng) {
  // core/audit.ts quantizedCellAt: LAT_STEP_DEG = 180 / 2^32, LNG_STEP_DEG = 360 / 2^32.
  double latStep = 180.0 / 4294967296.0;
  double lngStep = 360.0 / 4294967296.0;
  double lo = Math.max(-90.0, lat - latStep);
  double hi = Math.min(90.0, lat + 2 * latStep);
  double w = lng - lngStep;
  double e = lng + 2 * lngStep;
  int cell = s2Ordinal(lo, w);
  return s2Ordinal(hi, w) == cell && s2Ordinal(lo, e) == cell && s2Ordinal(hi, e) == cell ? cell : -1;
}
boolean s2Decimal(String s) {
  // pointOf's /-?[\\d.]+/: an optional minus, then one or more digits and dots.
  int n = s.length();
  int k = n > 0 && s.charAt(0) == (char) '-' ? 1 : 0;
  if (k >= n) return false;
  for (; k < n; k++) { char c = s.charAt(k); if (!((c >= (char) '0' && c <= (char) '9') || c == (char) '.')) return false; }
  return true;
}
double[] s2Valid(double lat, double lng) {
  if (Double.isNaN(lat) || Double.isNaN(lng) || Double.isInfinite(lat) || Double.isInfinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return new double[] {lat, lng};
}
double[] s2PointOf(def v) {
  if (v instanceof List) {
    List l = (List) v;
    if (l.size() >= 2 && l.get(0) instanceof Number && l.get(1) instanceof Number) return s2Valid(((Number) l.get(1)).doubleValue(), ((Number) l.get(0)).doubleValue());
    return null;
  }
  if (v instanceof String) {
    String s = (String) v;
    int comma = s.indexOf(',');
    if (comma < 0) return null;
    String a = s.substring(0, comma).trim();
    String b = s.substring(comma + 1).trim();
    if (!s2Decimal(a) || !s2Decimal(b)) return null;
    try { return s2Valid(Double.parseDouble(a), Double.parseDouble(b)); } catch (NumberFormatException x) { return null; }
  }
  if (v instanceof Map) {
    Map m = (Map) v;
    if (m.get('lat') instanceof Number && m.get('lon') instanceof Number) return s2Valid(((Number) m.get('lat')).doubleValue(), ((Number) m.get('lon')).doubleValue());
    if ('Point'.equals(m.get('type'))) return s2PointOf(m.get('coordinates'));
  }
  return null;
}
double[] s2SourcePoint(def v) {
  double[] p = s2PointOf(v);
  if (p != null || !(v instanceof List) || ((List) v).isEmpty() || ((List) v).get(0) instanceof Number) return p;
  return s2PointOf(((List) v).get(0));
}
def s2At(Map doc, String path) {
  // A dotted path of a _source: the key holding the dots first, then by parts.
  if (doc == null) return null;
  if (doc.containsKey(path)) return doc.get(path);
  def v = doc;
  for (String part : path.splitOnToken('.')) {
    if (!(v instanceof Map)) return null;
    v = ((Map) v).get(part);
  }
  return v;
}
`.trim();
