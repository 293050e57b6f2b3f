"""Writes N made-up clients as vCard 3.0 files of at most 5,000 cards: PREFIX-1.vcf, PREFIX-2.vcf, ...

    python3 bench/make_cards.py N PREFIX [TAG]

Names are drawn (with a fixed seed, without repeats: import matches cards by UID, email, then full name) from
common given and family names, some double-barrelled, so a search prefix such as "smi" matches a realistic share
of the clients. That pool holds about 42,000 names; with a TAG each client also gets a second given name (about
970,000 names), and UIDs and emails carry the TAG, so one run can make up to that many distinct clients that an
import creates rather than matches (bench/run's vcard_import seeds 50,000 that way).
"""
import random
import sys

GIVEN = ["Olivia", "Liam", "Amelia", "Noah", "Isla", "Oliver", "Ava", "Jack", "Mia", "Leo", "Zoë", "Mateo",
         "Aroha", "Nikau", "Chloé", "Tomás", "Ana", "Wiremu", "Sofía", "James", "Grace", "Hugo", "Ruby", "Eli"]
FAMILY = ["Smith", "Williams", "Brown", "Wilson", "Taylor", "Jones", "Ngata", "Martin", "Thompson", "Walker",
          "Ångström", "Müller", "García", "Núñez", "O'Brien", "Kelly", "Singh", "Patel", "Chen", "Wang", "Lee",
          "Anderson", "Clarke", "Robinson", "Harris", "Lewis", "Young", "King", "Wright", "Scott", "Green", "Baker",
          "Adams", "Hill", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips", "Evans", "Turner", "Parker"]


def main() -> None:
    count, prefix = int(sys.argv[1]), sys.argv[2]
    tag = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(42)
    families = FAMILY + [f"{a}-{b}" for a in FAMILY for b in FAMILY if a != b]
    if tag is None:
        names = rng.sample([(given, family) for given in GIVEN for family in families], count)
    else:
        pairs = [(first, second) for first in GIVEN for second in GIVEN if first != second]
        names = [(" ".join(pairs[number // len(families)]), families[number % len(families)])
                 for number in rng.sample(range(len(pairs) * len(families)), count)]
    uid, email = ("bench-", "client") if tag is None else (f"bench-{tag}-", f"{tag}-client")
    cards = []
    for index, (given, family) in enumerate(names):
        cards.append(
            "BEGIN:VCARD\r\nVERSION:3.0\r\n"
            f"N:{family};{given};;;\r\nFN:{given} {family}\r\n"
            f"EMAIL;TYPE=INTERNET:{email}{index}@example.com\r\n"
            f"TEL;TYPE=CELL:021 {rng.randrange(100, 999)} {rng.randrange(1000, 9999)}\r\n"
            f"BDAY:{rng.randrange(1945, 2008)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}\r\n"
            f"X-GENDER:{rng.choice(['Male', 'Female'])}\r\nUID:{uid}{index}\r\nEND:VCARD\r\n"
        )
    for part, start in enumerate(range(0, count, 5000), start=1):
        with open(f"{prefix}-{part}.vcf", "w", encoding="utf-8") as file:
            file.write("".join(cards[start:start + 5000]))


if __name__ == "__main__":
    main()
