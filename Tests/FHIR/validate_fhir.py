"""Validates FHIR R4 JSON files with the R4 models of fhir.resources (PyPI; its R4B module, whose resources the
exports use unchanged from R4), then checks what the models leave to a terminology server: the codes of the value
sets the exports use, UCUM quantities, LOINC code shapes, and that every urn:uuid reference names an entry of
the same bundle. Prints one line per file ("ok: N resources" or the problems) and exits 1 on any problem."""

import json
import re
import sys

from fhir.resources.R4B import get_fhir_model_class

VALUE_SETS = {
    ("Patient", "gender"): {"male", "female", "other", "unknown"},
    ("Observation", "status"): {"registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"},
    ("QuestionnaireResponse", "status"): {"in-progress", "completed", "amended", "entered-in-error", "stopped"},
    ("Questionnaire", "status"): {"draft", "active", "retired", "unknown"},
    ("Media", "status"): {"preparation", "in-progress", "not-done", "on-hold", "stopped", "completed", "entered-in-error", "unknown"},
    ("Bundle", "type"): {"document", "message", "transaction", "transaction-response", "batch", "batch-response", "history", "searchset", "collection"},
}
CATEGORIES = {"social-history", "vital-signs", "imaging", "laboratory", "procedure", "survey", "exam", "therapy", "activity"}
ITEM_TYPES = {"group", "display", "boolean", "decimal", "integer", "date", "dateTime", "time", "string", "text", "url", "choice", "open-choice", "attachment", "reference", "quantity"}
LOINC = re.compile(r"^\d{1,7}-\d$")


def walk(node, visit, path=""):
    visit(node, path)
    if isinstance(node, dict):
        for key, value in node.items():
            walk(value, visit, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            walk(value, visit, f"{path}[{index}]")


def check_resource(resource, problems, where):
    kind = resource.get("resourceType")
    for (resource_type, field), allowed in VALUE_SETS.items():
        if kind == resource_type and field in resource and resource[field] not in allowed:
            problems.append(f"{where}.{field}: {resource[field]!r} is not in its value set")
    if kind == "Observation":
        for category in resource.get("category", []):
            for coding in category.get("coding", []):
                if coding.get("code") not in CATEGORIES:
                    problems.append(f"{where}.category: {coding.get('code')!r} is not an observation category")
    if kind == "Questionnaire":
        def item_types(node, path):
            if isinstance(node, dict) and "linkId" in node and "type" in node and node["type"] not in ITEM_TYPES:
                problems.append(f"{where}{path}.type: {node['type']!r} is not an item type")
        walk(resource, item_types)

    def codes(node, path):
        if not isinstance(node, dict):
            return
        if node.get("system") == "http://loinc.org" and not LOINC.match(str(node.get("code", ""))):
            problems.append(f"{where}{path}: LOINC code {node.get('code')!r} is malformed")
        if "value" in node and "unit" in node and node.get("system") != "http://unitsofmeasure.org":
            problems.append(f"{where}{path}: a quantity with a unit must be UCUM")
        if node.get("system") == "http://unitsofmeasure.org" and not node.get("code"):
            problems.append(f"{where}{path}: a UCUM quantity needs its code")
    walk(resource, codes)


def validate(document):
    problems = []
    kind = document.get("resourceType")
    try:
        get_fhir_model_class(kind).model_validate(document)
    except Exception as error:  # the model's own message names every field
        problems.append(str(error))
    resources = [entry.get("resource", {}) for entry in document.get("entry", [])] if kind == "Bundle" else [document]
    check_resource(document, problems, kind)
    for index, resource in enumerate(resources):
        if resource is not document:
            check_resource(resource, problems, f"entry[{index}]")
    if kind == "Bundle":
        names = [entry.get("fullUrl") for entry in document.get("entry", [])]
        if len(names) != len(set(names)):
            problems.append("two entries share a fullUrl")
        named = set(names)

        def references(node, path):
            if isinstance(node, dict) and isinstance(node.get("reference"), str):
                if node["reference"].startswith("urn:uuid:") and node["reference"] not in named:
                    problems.append(f"{path}: {node['reference']} names no entry")
        walk(document, references)
    return len(resources), problems


def main():
    failed = False
    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as file:
            count, problems = validate(json.load(file))
        if problems:
            failed = True
            print(f"{name}: {len(problems)} problems")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{name}: ok: {count} resources")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
