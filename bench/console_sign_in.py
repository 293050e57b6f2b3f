"""Signs in to the web console as a browser does (the sign-in form's token in its cookie and the form) and prints
the session cookie, `hw_session=…`, for wrk's Cookie header. Usage: console_sign_in.py BASE EMAIL PASSWORD"""

import http.client
import re
import sys
import urllib.parse

base, email, password = sys.argv[1:4]
url = urllib.parse.urlparse(base)


def request(method, path, body=None, cookie=None):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    headers = {"Cookie": cookie} if cookie else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    return response


def cookie(response, name):
    for header, value in response.getheaders():
        if header.lower() == "set-cookie" and value.startswith(name + "="):
            return value.split(";")[0]
    sys.exit(f"no {name} cookie from {response.status}")


form = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
form.request("GET", "/sign-in")
page = form.getresponse()
token = re.search(r'name="csrf" value="([^"]+)"', page.read().decode()).group(1)
signin = cookie(page, "hw_signin")
body = urllib.parse.urlencode({"csrf": token, "email": email, "password": password, "next": "/clients"})
print(cookie(request("POST", "/sign-in", body, signin), "hw_session"))
