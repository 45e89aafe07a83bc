# -*- coding: utf-8 -*-
X = 512
