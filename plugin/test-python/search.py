"""Searches a geosharded index through its default search pipeline with Python's official client
(opensearch-py), sending no routing, and prints what each answer says: ext.geoshard (the plugin's
report, in the body), the shards asked, the total and the ids of the hits in order. Driven by
src/opensearch/plugin.live.test.ts and pluginMigrate.live.test.ts: reads {"url", "index",
"queries": [search bodies]} on stdin, writes a JSON list on stdout."""
import json
import sys

from opensearchpy import OpenSearch


def main():
    spec = json.load(sys.stdin)
    client = OpenSearch(hosts=[spec["url"]], timeout=60)
    out = []
    for body in spec["queries"]:
        res = client.search(index=spec["index"], body=body)
        total = res["hits"].get("total")
        out.append({
            "geoshard": res.get("ext", {}).get("geoshard"),
            "shards": res["_shards"]["total"],
            "failed": res["_shards"].get("failed", 0),
            "total": total.get("value") if isinstance(total, dict) else total,
            "ids": [h["_id"] for h in res["hits"]["hits"]],
        })
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
