// s2-geometry ships no types; the tests use it only as an independent oracle for cell ids.
declare module 's2-geometry' {
  const s2geometry: { S2: Record<string, (...args: never[]) => unknown> };
  export default s2geometry;
}
