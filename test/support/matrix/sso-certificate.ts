// SAML test data: a real self-signed X.509 certificate (CN=idp.test.example), generated once with openssl.
export const idpCertificate =
  '-----BEGIN CERTIFICATE-----\n' +
  'MIIDFzCCAf+gAwIBAgIUT5yrSdg4jO5LgGTAcV8Epvg4Ck0wDQYJKoZIhvcNAQEL\n' +
  'BQAwGzEZMBcGA1UEAwwQaWRwLnRlc3QuZXhhbXBsZTAeFw0yNjExMjIwNDUxNDla\n' +
  'Fw0zNjExMTkwNDUxNDlaMBsxGTAXBgNVBAMMEGlkcC50ZXN0LmV4YW1wbGUwggEi\n' +
  'MA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDzrF6FijH0D/IcrdgUII0wA046\n' +
  'sYe0+2zpFJZFsyFS4GbZVsPAm434o17tnkyI+Q6SC3WADbe9wrkGcJadWdJwux3w\n' +
  'fI3d6v4L4ayNFx+K1PIzrh+OREu1lcgAxUY0/dPQxUJA6RLTDPOx9ujb1dh1T+kn\n' +
  'Wxr12sVtVJJ5WZgZvxrFlT0UaWC6RiBawU8xtKfyc4u6RiwEy9cLttqCdQGUTCKv\n' +
  'wyi2W0F+HU7DHwq8GzIcXVLLtnCmVr3ePRoUZjT10lWovz3bfsB8SLOBwkkYTCgq\n' +
  'YDt+Q3ga0YPilGaNvM6ALu+wTn/S5EiC4nNyW6RyMzcksJnDpnueAcK4fS+vAgMB\n' +
  'AAGjUzBRMB0GA1UdDgQWBBS1GhHJ0i2fwfM3BwM0DqM/J0QtZzAfBgNVHSMEGDAW\n' +
  'gBS1GhHJ0i2fwfM3BwM0DqM/J0QtZzAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3\n' +
  'DQEBCwUAA4IBAQDCl0aIfg0l3idG9sT2bW3jll3yxG9VRHH9rDOH8BekT3TOdUTT\n' +
  'WWLd2VjSJANwgO3igmr98E0UnFX1fbBFLsIwg/5deBimHh1q2d513z4pLVxPV3iU\n' +
  'cPrLtvzL4kP8hQED5Bhrht5oMBsqyq0Ko7TN7JKWgGCw20kcsbyctYb02lYIYqmX\n' +
  '3vn+UB3zndyQZshhR7zq6msvuC3A3wFYB6XkV0sl0uQAAjT+6Ec/NNMhkNNiEj4k\n' +
  '3LCoqD10se/mmSwlb/VQ7959SVsqya2T1RZAxdMGGiYaL+MNkZy8Cc9eOfVKmyTq\n' +
  'ZYZXQ82vpC2QnpPLX91gjmh/sKIRC232TJBK\n' +
  '-----END CERTIFICATE-----';
